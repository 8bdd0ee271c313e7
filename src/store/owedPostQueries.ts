import type { Kysely } from 'kysely';
import type { OwedPost, PostKind, PostsToTake } from './OwedPost.js';
import { toAudit } from './rowMapping.js';
import type { Store } from './Store.js';
import type { Database, Engine } from './schema.js';
import { storeClockMs } from './storeClockMs.js';

/**
 * The owed posts (migration 0020): each take is one conditional update that moves the post's time a
 * lease ahead, so of the settling replica and every sweep exactly one holds it at a time, and it stays
 * owed until Discord accepted it — a taker that dies or whose post fails leaves it to the next take.
 */
export function owedPostQueries(
  db: Kysely<Database>,
  engine: Engine,
): Pick<Store['audit'], 'takePosts' | 'postDone'> {
  const postDone = async (auditId: number, kind: PostKind): Promise<boolean> => {
    // Discord accepted it (or it was given up): whoever holds the lease now, it is no longer owed — a
    // later take would post it again past Discord's nonce window.
    const deleted = await db
      .deleteFrom('owed_posts')
      .where('audit_id', '=', auditId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return deleted.numDeletedRows === 1n;
  };
  return {
    postDone,
    async takePosts(which: PostsToTake, leaseMs: number): Promise<OwedPost[]> {
      const now = storeClockMs(engine);
      const leased = db
        .updateTable('owed_posts')
        .set((eb) => ({ due_at: eb(now, '+', leaseMs), attempts: eb('attempts', '+', 1) }))
        .returning(['audit_id', 'kind', 'attempts']);
      const taken =
        'due' in which
          ? await leased
              .where(
                'audit_id',
                'in',
                db
                  .selectFrom('owed_posts')
                  .select('audit_id')
                  .where('due_at', '<=', now)
                  .orderBy('due_at')
                  .limit(which.due),
              )
              // Checked again on the row itself: of two sweeps, the second finds it leased.
              .where('due_at', '<=', now)
              .execute()
          : await leased
              .where(
                'audit_id',
                'in',
                db
                  .selectFrom('audit')
                  .select('id')
                  .where('change_id', '=', which.changeId)
                  .where('outcome', '=', which.outcome),
              )
              // Only its first take: a sweep that took it after its time holds it.
              .where('attempts', '=', 0)
              .execute();
      if (taken.length === 0) return [];
      const ids = taken.map((row) => Number(row.audit_id));
      const entries = new Map(
        (await db.selectFrom('audit').selectAll().where('id', 'in', ids).execute()).map((row) => [
          Number(row.id),
          toAudit(row),
        ]),
      );
      const posts: OwedPost[] = [];
      for (const row of taken) {
        const entry = entries.get(Number(row.audit_id));
        const kind = row.kind as PostKind;
        if (entry) posts.push({ kind, attempts: Number(row.attempts), entry });
        // Its audit row purged meanwhile (past retention): nothing left to tell.
        else await postDone(Number(row.audit_id), kind);
      }
      return posts;
    },
  };
}
