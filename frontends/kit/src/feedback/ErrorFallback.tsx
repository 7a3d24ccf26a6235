import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../lean/Button.js';
import { Paper, Stack } from '../lean/layout.js';
import { Text } from '../lean/typography.js';

export const ERROR_FALLBACK_TEXT = 'Something went wrong. Please refresh this page to try again.';

/**
 * Spec 1 s.2.10: the error fallback; its refresh button goes to /. With `reference` (the trace id its
 * report was logged under), a line the user can quote to their firm, and the firm to its operators.
 * Made of lean components: it shows where Mantine's code did not load, or before it has.
 */
export function ErrorFallback({ onRefresh, reference }: { onRefresh?: () => void; reference?: string }) {
  return (
    <Paper p="xl" withBorder role="alert" data-testid="error-fallback" maw={560} mx="auto" my="xl">
      <Stack align="center" gap="md">
        <Text ta="center">{ERROR_FALLBACK_TEXT}</Text>
        <Button onClick={onRefresh ?? (() => window.location.assign('/'))}>Refresh</Button>
        {reference ? (
          <Text size="xs" c="dimmed" data-testid="error-reference">
            Reference: {reference}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

interface ErrorBoundaryProps {
  children: ReactNode;
  /** What shows instead of the children; a function is given the error's reference once it is known. */
  fallback?: ReactNode | ((reference: string | undefined) => ReactNode);
  /** Clears the error when it changes (e.g. the location), so navigating away recovers. */
  resetKey?: unknown;
  /** Each error caught; it may answer the error's reference (a report's trace id). */
  onError?: (error: unknown, info: ErrorInfo) => undefined | Promise<string | undefined>;
}

interface ErrorBoundaryState {
  error: unknown;
  key: unknown;
  reference?: string;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error, reference: undefined };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState) {
    if (props.resetKey !== state.key) return { error: null, key: props.resetKey, reference: undefined };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('[portico] area failed', error);
    void this.props.onError?.(error, info)?.then((reference) => {
      // Still the error on screen: not one the user has since navigated away from.
      if (reference && this.state.error === error) this.setState({ reference });
    });
  }

  override render() {
    const { error, reference } = this.state;
    if (!error) return this.props.children;
    const { fallback } = this.props;
    if (typeof fallback === 'function') return fallback(reference);
    return fallback ?? <ErrorFallback reference={reference} />;
  }
}
