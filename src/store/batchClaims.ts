export interface Claim {
  id: string;
  replicaId: string;
  at: number;
}

interface Waiting {
  claim: Claim;
  resolve: (won: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Claims that arrive while earlier ones are still on their way to the database go out together, as one
 * statement: alone, a claim is sent at once; in a burst, one round trip (and one parse, one commit)
 * claims dozens of interactions. The database still decides every id: `claim` returns the ids this
 * statement inserted, and an id twice in one batch is won at most once.
 */
export function batchClaims(
  insert: (claims: readonly Claim[]) => Promise<ReadonlySet<string>>,
  options: { maxInFlight?: number; maxBatch?: number } = {},
): (claim: Claim) => Promise<boolean> {
  const maxInFlight = options.maxInFlight ?? 2;
  const maxBatch = options.maxBatch ?? 500;
  let queue: Waiting[] = [];
  let inFlight = 0;

  const flush = (): void => {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight += 1;
      const unique = new Map(batch.map((waiting) => [waiting.claim.id, waiting.claim]));
      insert([...unique.values()])
        .then(
          (inserted) => {
            const answered = new Set<string>();
            for (const waiting of batch) {
              const { id } = waiting.claim;
              const won = inserted.has(id) && !answered.has(id);
              answered.add(id);
              waiting.resolve(won);
            }
          },
          (error: unknown) => {
            for (const waiting of batch) waiting.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          flush();
        });
    }
  };

  return (claim) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ claim, resolve, reject });
      flush();
    });
}
