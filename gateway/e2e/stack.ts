import { startGateway } from '@portico/gateway/testing';
import {
  ACCOUNT_NOTICE_KINDS,
  type BuiltFirm,
  startIdentity,
  TEST_PASSWORD,
  testFirmSpec,
} from '@portico/identity/testing';
import { startNotifications } from '@portico/notifications/testing';
import { createServiceDatabase, startNatsServer, uniqueDatabaseName } from '@portico/platform/testing';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * The real stack for API tests: its own nats-server, identity and notifications on fresh databases,
 * the gateway on a free loopback port. Two firms are seeded; `other` exists to prove isolation.
 */
export interface StackOptions {
  /** More services on the same NATS and PostgreSQL, started before the gateway and stopped after it. */
  services?: (natsUrl: string, pgAdminUrl: string) => Promise<{ stop(): Promise<void> }>;
}

export async function startStack(
  label: string,
  gatewayEnv: Record<string, string> = {},
  options: StackOptions = {},
) {
  const pgAdminUrl = process.env.TEST_PG_ADMIN_URL as string;
  const nats = await startNatsServer();
  const notifications = await startNotifications({
    natsUrl: nats.url,
    databaseUrl: await createServiceDatabase(pgAdminUrl, uniqueDatabaseName('notifications')),
  });
  const identity = await startIdentity({ natsUrl: nats.url, pgAdminUrl });
  const extra = options.services ? await options.services(nats.url, pgAdminUrl) : undefined;
  const gateway = await startGateway({
    natsUrl: nats.url,
    env: { LOG_LEVEL: 'silent', DEV_ROUTES_ENABLED: 'true', REQUEST_TIMEOUT_MS: '3000', ...gatewayEnv },
  });
  const firm: BuiltFirm = await identity.buildFirm(testFirmSpec(label));
  const other: BuiltFirm = await identity.buildFirm(testFirmSpec(`${label}-other`));

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body: body as T, headers: response.headers };
  }

  /** Signs a seeded user in with the password flow and returns the session. */
  async function signIn(built: BuiltFirm, key: string) {
    const email = built.users[key]?.email;
    const step = await call<{ auth_token: string }>('POST', '/sessions/verify_password', {
      body: { email, password: TEST_PASSWORD },
    });
    if (step.status !== 200) throw new Error(`sign-in of ${key} failed: ${JSON.stringify(step.body)}`);
    const session = await call<{ access_token: string; refresh_token: string }>(
      'POST',
      '/sessions/exchange_token',
      {
        body: { auth_token: step.body.auth_token },
      },
    );
    return session.body;
  }

  /**
   * The newest dev-outbox message sent to an address, account notices aside: identity sends those from
   * an event consumer in their own time, and one arriving after a code or link would hide it.
   */
  async function lastMessageTo(to: string) {
    const res = await call<{ messages: { text: string; subject: string; kind: string }[] }>(
      'GET',
      `/dev/outbox?to=${encodeURIComponent(to)}&limit=20`,
    );
    return res.body.messages?.find((m) => !(ACCOUNT_NOTICE_KINDS as readonly string[]).includes(m.kind));
  }

  return {
    gateway,
    natsUrl: nats.url,
    identity,
    firm,
    other,
    call,
    signIn,
    lastMessageTo,
    stopIdentity: identity.stop,
    stop: async () => {
      await gateway.stop();
      await extra?.stop();
      await identity.stop().catch(() => undefined);
      await notifications.stop();
      await nats.stop();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;
