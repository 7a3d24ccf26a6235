import { Button, Paper, Stack, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';

export const ERROR_FALLBACK_TEXT = 'Something went wrong. Please refresh this page to try again.';

/** Spec 1 s.2.10: the error fallback; its refresh button goes to /. */
export function ErrorFallback({ onRefresh }: { onRefresh?: () => void }) {
  return (
    <Paper p="xl" withBorder role="alert" data-testid="error-fallback" maw={560} mx="auto" my="xl">
      <Stack align="center" gap="md">
        <Text ta="center">{ERROR_FALLBACK_TEXT}</Text>
        <Button onClick={onRefresh ?? (() => window.location.assign('/'))}>Refresh</Button>
      </Stack>
    </Paper>
  );
}

interface ErrorBoundaryProps {
  children: ReactNode;
  fallback?: ReactNode;
  /** Clears the error when it changes (e.g. the location), so navigating away recovers. */
  resetKey?: unknown;
  onError?: (error: unknown, info: ErrorInfo) => void;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: unknown; key: unknown }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: { error: unknown; key: unknown }) {
    if (props.resetKey !== state.key) return { error: null, key: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('[portico] area failed', error);
    this.props.onError?.(error, info);
  }

  override render() {
    if (this.state.error) return this.props.fallback ?? <ErrorFallback />;
    return this.props.children;
  }
}
