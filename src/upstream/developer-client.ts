import type { Clock } from '../base/clock.js';
import { callService, type ServiceAnswer, type ServiceTransport } from './call-service.js';
import { buildServiceTransport, type ServiceClientOptions } from './client.js';
import { RequestBudgets, type BudgetDecision, type BudgetLimits, type RequestPurpose } from './developer-budget.js';
import {
  UploadedFileSchema,
  type AppDetail,
  type AppSummary,
  type CatalogApp,
  type DeveloperAccount,
  type DeveloperOptions,
  type Submission,
  type UnusedUpload,
  type UploadedFile,
} from './developer-schemas.js';
import {
  readAppDetail,
  readAppList,
  readCatalogApps,
  readDeveloperAccount,
  readDeveloperOptions,
  readUnusedUploads,
} from './read-developer-objects.js';
import { ServiceApiError, type DeveloperOperation } from './service-api-error.js';

/** The calls that count against the 10 submissions an hour (§8). */
const SUBMISSIONS: ReadonlySet<DeveloperOperation> = new Set(['createApp', 'submitVersion']);

/** An upload of up to 25 MB may take longer than other calls' deadline; it gets at least this long. */
const UPLOAD_TIMEOUT_MS = 120_000;

/** The path of the developer API below SERVICE_URL (upstream-api.md §9). */
const DEVELOPER_API_PATH = '/api/v1';

/** Who calls, with which key: every call is counted against that key's budget. */
export interface DeveloperCaller {
  /** The guild's developer key (`upk_…`), in clear for this call only. */
  key: string;
  purpose: RequestPurpose;
}

/** A file to upload: its name (the `name` query parameter) and its bytes, sent as they are. */
export interface UploadInput {
  name: string;
  bytes: Uint8Array;
}

/**
 * The developer API v1 (upstream-api.md §4.1), one method per endpoint. Every call first asks the key's
 * {@link RequestBudgets budget}; a call the budget holds back is not sent and fails with a `throttled`
 * {@link ServiceApiError} that says when to retry. Every other failure is a {@link ServiceApiError} too.
 */
export interface DeveloperClient {
  /** GET /me: the account and key; proves a key works. */
  getMe(caller: DeveloperCaller): Promise<DeveloperAccount>;
  /** GET /options: categories, data kinds, age ratings, repository hosts, upload limits. */
  getOptions(caller: DeveloperCaller): Promise<DeveloperOptions>;
  /** POST /uploads?name=: the raw bytes, application/octet-stream. */
  upload(caller: DeveloperCaller, file: UploadInput): Promise<UploadedFile>;
  /** GET /uploads: uploads not part of a version yet. */
  listUploads(caller: DeveloperCaller): Promise<UnusedUpload[]>;
  /** GET /store: every app of the store. */
  getStore(caller: DeveloperCaller): Promise<CatalogApp[]>;
  /** GET /apps: the caller's apps. */
  listApps(caller: DeveloperCaller): Promise<AppSummary[]>;
  /** GET /apps/:id: one app with its versions. */
  getApp(caller: DeveloperCaller, appId: string): Promise<AppDetail>;
  /** POST /apps: a new app for review. @returns the answer body, whose shape is not documented */
  createApp(caller: DeveloperCaller, submission: Submission): Promise<unknown>;
  /** POST /apps/:id/submissions: a new version for review. @returns the answer body (undocumented shape) */
  submitVersion(caller: DeveloperCaller, appId: string, submission: Submission): Promise<unknown>;
  /** DELETE /apps/:id/submissions/pending. @returns the answer body (undocumented shape) */
  withdrawPending(caller: DeveloperCaller, appId: string): Promise<unknown>;
  /**
   * Whether the key's budget lets a request for `purpose` go now; if not, how long it must wait and why (the
   * service's `retry-after`, or the count of the last minute).
   */
  checkBudget(key: string, purpose: RequestPurpose): BudgetDecision;
  /** The fewest polls any key's budget lets go now, in this minute (the release poller's budget left). */
  pollBudgetLeft(): number;
}

export interface DeveloperClientOptions extends ServiceClientOptions {
  clock?: Clock;
  limits?: BudgetLimits;
}

/**
 * Builds the developer API client with one request budget per key.
 * @throws Error when `serviceUrl` is not an http(s) URL
 */
export function createDeveloperClient(options: DeveloperClientOptions): DeveloperClient {
  const clock = options.clock ?? Date.now;
  const transport = buildServiceTransport({ ...options, clock }, DEVELOPER_API_PATH);
  const uploadTransport = { ...transport, timeoutMs: Math.max(transport.timeoutMs, UPLOAD_TIMEOUT_MS) };
  const budgets = new RequestBudgets(clock, options.limits);

  const send = async (
    caller: DeveloperCaller,
    operation: DeveloperOperation,
    request: { path: string; method?: 'GET' | 'POST' | 'DELETE'; body?: unknown; bytes?: UploadInput['bytes'] },
  ): Promise<ServiceAnswer> => {
    const budget = budgets.of(caller.key);
    const decision = budget.check(caller.purpose);
    if (!decision.ok) {
      throw new ServiceApiError({
        operation,
        failure: 'throttled',
        host: transport.host,
        throttle: decision.reason,
        retryAfterSeconds: Math.ceil(decision.waitMs / 1000),
      });
    }
    budget.take(caller.purpose);
    return callService(request.bytes === undefined ? transport : uploadTransport, {
      operation,
      key: caller.key,
      path: request.path,
      method: request.method ?? 'GET',
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.bytes === undefined
        ? {}
        : { bytes: { data: request.bytes, contentType: 'application/octet-stream' } }),
      onAnswer: (headers, status) => budget.learn(headers, status, SUBMISSIONS.has(operation)),
    });
  };
  const appPath = (appId: string) => `/apps/${encodeURIComponent(appId)}`;

  return {
    async getMe(caller) {
      return readDeveloperAccount((await send(caller, 'getMe', { path: '/me' })).json);
    },
    async getOptions(caller) {
      return readDeveloperOptions((await send(caller, 'getOptions', { path: '/options' })).json);
    },
    async upload(caller, file) {
      const answer = await send(caller, 'upload', {
        path: `/uploads?name=${encodeURIComponent(file.name)}`,
        method: 'POST',
        bytes: file.bytes,
      });
      const parsed = UploadedFileSchema.safeParse(answer.json);
      if (!parsed.success) throw badAnswer('upload', transport, answer, 'no file token');
      return parsed.data.file;
    },
    async listUploads(caller) {
      return readUnusedUploads((await send(caller, 'listUploads', { path: '/uploads' })).json);
    },
    async getStore(caller) {
      return readCatalogApps((await send(caller, 'getStore', { path: '/store' })).json);
    },
    async listApps(caller) {
      const answer = await send(caller, 'listApps', { path: '/apps' });
      if (!answer.hasJson) throw badAnswer('listApps', transport, answer, 'not JSON');
      return readAppList(answer.json);
    },
    async getApp(caller, appId) {
      const answer = await send(caller, 'getApp', { path: appPath(appId) });
      const detail = readAppDetail(answer.json);
      if (!detail) throw badAnswer('getApp', transport, answer, 'no app id');
      return detail;
    },
    async createApp(caller, submission) {
      return (await send(caller, 'createApp', { path: '/apps', method: 'POST', body: submission })).json;
    },
    async submitVersion(caller, appId, submission) {
      const path = `${appPath(appId)}/submissions`;
      return (await send(caller, 'submitVersion', { path, method: 'POST', body: submission })).json;
    },
    async withdrawPending(caller, appId) {
      const path = `${appPath(appId)}/submissions/pending`;
      return (await send(caller, 'withdrawPending', { path, method: 'DELETE' })).json;
    },
    checkBudget: (key, purpose) => budgets.of(key).check(purpose),
    pollBudgetLeft: () => budgets.lowestPollsLeft(),
  };
}

function badAnswer(
  operation: DeveloperOperation,
  transport: ServiceTransport,
  answer: ServiceAnswer,
  problem: string,
): ServiceApiError {
  return new ServiceApiError({
    operation,
    failure: 'bad_answer',
    host: transport.host,
    status: answer.status,
    problem,
  });
}
