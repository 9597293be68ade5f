import type { NewDelivery } from '../../../store/deliveries.js';

/** A replay as /feed replay starts it. */
export interface NewReplayRun {
  runId: string;
  guildId: string;
  channelId: string;
  /** Events received from this time on are replayed. */
  sinceAt: number;
  /** The last delivery stored when it started: what comes later is the feed's live work. */
  upToSeq: number;
  startedBy: string;
  startedAt: number;
}

/** The message a run wrote down before sending it: a restart sends exactly this again, under its nonce. */
export interface WrittenReplay {
  nonce: string;
  /** The body, as the runner wrote it (opaque here). */
  message: string;
  writtenAt: number;
  /** Where the run's cursor goes once it is confirmed: the seq of its last event. */
  upToSeq: number;
}

/** A replay into one channel, as the store keeps it. */
export interface ReplayRun extends NewReplayRun {
  /** The last delivery the run has dealt with (posted, or passed over as not routed to its channel). */
  cursorSeq: number;
  endedAt: number | null;
  /** Events it posted so far. */
  posted: number;
  /** Why it stopped early (Discord refused the channel); null while it runs, or when it ended with nothing left. */
  failure: string | null;
  written: WrittenReplay | null;
}

/** A stored delivery a run may replay: posted (or muted) within the window, with its body. */
export interface ReplaySource extends NewDelivery {
  seq: number;
  /** The channel it was posted to (null when muted). */
  channelId: string | null;
  muted: boolean;
}

/** One event of a message a run writes down. */
export interface ReplayedEvent {
  hookId: string;
  deliveryId: string;
  receivedAt: number;
}

/** An event a run wrote down (posted once `postedAt` is set), as migrate-store copies it. */
export interface StoredReplayPost extends ReplayedEvent {
  channelId: string;
  guildId: string;
  runId: string;
  nonce: string;
  postedAt: number | null;
}

/** The replay feature's store: its runs, and the events each posted into its channel (once per channel). */
export interface ReplayStore {
  /** Starts a run; `started` false (and the channel's running run) when the channel has one already. */
  start(run: NewReplayRun): Promise<{ started: boolean; run: ReplayRun }>;
  /** The runs not ended (a few: one per channel at most). */
  listRunning(): Promise<ReplayRun[]>;
  runOf(runId: string): Promise<ReplayRun | undefined>;
  /** The channel's running run, if any. */
  runningIn(channelId: string): Promise<ReplayRun | undefined>;
  /** The last delivery stored now (0 when none). */
  latestSeq(): Promise<number>;
  /**
   * Up to `limit` deliveries of the run's guild past its cursor (up to its last), received since its start time,
   * posted or muted and with their body, in store order, leaving out those already replayed into its channel.
   */
  sources(run: ReplayRun, limit: number): Promise<ReplaySource[]>;
  /** Moves the cursor past deliveries none of which goes to the run's channel. */
  advance(runId: string, cursorSeq: number): Promise<void>;
  /**
   * Writes down the run's next message with its events, in one transaction; false (nothing written) when the run
   * has a message written down already or moved on meanwhile (another process wrote it).
   */
  writeDown(run: ReplayRun, written: WrittenReplay, events: readonly ReplayedEvent[]): Promise<boolean>;
  /** Discord took the written-down message: its events are posted, the cursor moves past them. */
  confirm(runId: string, nonce: string, postedAt: number): Promise<void>;
  /** The run is over: nothing left, or `failure` says why it stopped. A message written down is forgotten. */
  end(runId: string, at: number, failure: string | null): Promise<void>;
  /** Forgets what is past the window: posted events received before `before`, runs ended before `endedBefore`. */
  sweep(before: number, endedBefore: number): Promise<number>;
  /** Every run and every posted event (migrate-store). */
  listAll(): Promise<{ runs: ReplayRun[]; posts: StoredReplayPost[] }>;
  /** Copies what listAll read into this store (migrate-store). */
  restore(all: Awaited<ReturnType<ReplayStore['listAll']>>): Promise<number>;
}
