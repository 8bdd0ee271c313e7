import type { ChannelPosts } from '../audit/channelPosts.js';
import type { ApprovalPolicy } from '../changes/ApprovalPolicy.js';
import type { Config } from '../config.js';
import type { AddressResolver } from '../dns/AddressResolver.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { RegistryCheck } from '../rdap/RegistryCheck.js';
import type { BotMessages } from '../replies/ReplyBody.js';
import type { Store } from '../store/index.js';
import type { DomainWatch } from '../watch/DomainWatch.js';
import type { RouterObserver } from './Answers.js';
import type { CommandModule } from './CommandModule.js';

/** What the router is built from: one set, made once by the runtime for every face (gateway, HTTP, console). */
export interface RouterDeps {
  commands: readonly CommandModule[];
  hosting: HostingClient;
  store: Store;
  config: Config;
  logger: Logger;
  secrets: SecretRegistry;
  generatePassword: () => string;
  now?: () => Date;
  /** The store's time (StoreClock): what change deadlines are stamped and checked by. */
  storeNow?: () => Date;
  observer?: RouterObserver;
  /** APPROVAL_REQUIRED as every face reads it; by default this process's own list. */
  approvals?: ApprovalPolicy;
  /**
   * Whether a second person can approve here (Discord: an approval request in a channel). Where not (the
   * console), a change that needs approval is refused, through the gate and into the audit trail.
   */
  approvalsHere?: boolean;
  /**
   * Posts what an audit row owes Discord: lines in the audit channel (AUDIT_CHANNEL_ID, if any), and the
   * notices of changes the sweep ended in their channels. Absent: nothing is posted (nor owed).
   */
  posts?: ChannelPosts;
  /** Waits between read-backs after an unknown outcome (tests shorten them). */
  readBackDelaysMs?: readonly number[];
  /** This process among replicas sharing one store (host:pid:random). */
  replicaId: string;
  /** Replica ids whose lease is current; by default only this one. */
  liveReplicas?: () => Promise<readonly string[]>;
  /** Other bots inside their lease, which can answer Discord while this process stops; none by default. */
  peerBots?: () => Promise<readonly string[]>;
  /**
   * Whether this process settles what others left behind in the store (overdue prompts and approval
   * requests, orphaned sends), at start and every few seconds: true (a bot replica) by default. A
   * console settles only what it sent itself: what it would tell, nobody in Discord would see.
   */
  settlesOthers?: boolean;
  /** Posts and edits bot messages (approval requests). */
  messages: BotMessages;
  /** The domain watch, when WATCH_CHANNEL_ID turns it on. */
  watch?: DomainWatch;
  /** The registry's word (RDAP); absent with RDAP_CHECK=off. */
  registry?: RegistryCheck;
  /** Who answers DNS look-ups (the forward check): the system's resolvers, DNS_SERVERS, or the sandbox's zone. */
  resolver: AddressResolver;
  /**
   * Whether every replica receives every interaction (the gateway: the default) or each goes to one
   * replica and may arrive again (an HTTP endpoint behind a load balancer, where a request can be replayed).
   */
  broadcast?: boolean;
}
