import type { Migration } from 'kysely';
import type { Engine } from '../schema.js';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_replicas_and_approval.js';
import * as m0003 from './0003_watch.js';
import * as m0004 from './0004_change_locale.js';
import * as m0005 from './0005_audit_actor.js';
import * as m0006 from './0006_dns_sets.js';
import * as m0007 from './0007_suggestions.js';
import * as m0008 from './0008_history_indexes.js';
import * as m0009 from './0009_shared_state.js';
import * as m0010 from './0010_audit_index_ids.js';
import * as m0011 from './0011_audit_target_search.js';
import * as m0012 from './0012_audit_target_exact.js';
import * as m0013 from './0013_audit_target_batched.js';
import * as m0015 from './0015_dns_set_outcome_of_change.js';
import * as m0016 from './0016_change_serial_key.js';
import * as m0017 from './0017_watch_flagged.js';
import * as m0018 from './0018_registry_answers.js';
import * as m0019 from './0019_audit_announce.js';
import * as m0020 from './0020_owed_posts.js';
import * as m0021 from './0021_access_grants.js';
import * as m0023 from './0023_registry_reasks.js';

/**
 * Every migration, in order, listed by hand: a bundle or a compiled `dist/` can't be scanned reliably,
 * and a missing entry should fail review rather than production. Forward-only, so `up` only.
 */
export function migrations(engine: Engine): Record<string, Migration> {
  return {
    '0001_initial': { up: (db) => m0001.up(db, engine) },
    '0002_replicas_and_approval': { up: (db) => m0002.up(db) },
    '0003_watch': { up: (db) => m0003.up(db) },
    '0004_change_locale': { up: (db) => m0004.up(db) },
    '0005_audit_actor': { up: (db) => m0005.up(db) },
    '0006_dns_sets': { up: (db) => m0006.up(db) },
    '0007_suggestions': { up: (db) => m0007.up(db) },
    '0008_history_indexes': { up: (db) => m0008.up(db, engine) },
    '0009_shared_state': { up: (db) => m0009.up(db) },
    '0010_audit_index_ids': { up: (db) => m0010.up(db, engine) },
    '0011_audit_target_search': { up: (db) => m0011.up(db, engine) },
    '0012_audit_target_exact': { up: (db) => m0012.up(db, engine) },
    '0013_audit_target_batched': { up: (db) => m0013.up(db, engine) },
    '0015_dns_set_outcome_of_change': { up: (db) => m0015.up(db) },
    '0016_change_serial_key': { up: (db) => m0016.up(db) },
    '0017_watch_flagged': { up: (db) => m0017.up(db) },
    '0018_registry_answers': { up: (db) => m0018.up(db) },
    '0019_audit_announce': { up: (db) => m0019.up(db, engine) },
    '0020_owed_posts': { up: (db) => m0020.up(db) },
    '0021_access_grants': { up: (db) => m0021.up(db) },
    '0023_registry_reasks': { up: (db) => m0023.up(db) },
  };
}
