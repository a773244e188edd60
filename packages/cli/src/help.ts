export const HELP = `edgelock — see who holds a lock, who waits, and force-unlock one

Usage:
  edgelock inspect [name] [--kind K] [--match GLOB] [--limit N] [--reveal-owners] [--json] [--prefix P]
  edgelock unlock <name> --force [--kind K] [--json] [--prefix P]
  edgelock --help | --version

  Without installing it: npx @edgelock/cli inspect … (never "npx edgelock": that asks npm for an
  unscoped package named edgelock, which is not this one)

Commands:
  inspect           every lock and synchronizer under the prefix: holders, lease left, waiters
  inspect <name>    one name in detail (holders with counts and fences, waiters in order)
  unlock <name>     delete every hold on <name> whoever holds it; needs --force

Options:
  --prefix P        key prefix of the clients to inspect (default "edgelock")
  --kind K          lock, fair-lock, read-write-lock, semaphore, permit-expirable-semaphore,
                    count-down-latch, quorum-lock (default: detected from the keys)
  --match GLOB      only names matching GLOB (Redis glob: * ? [abc])
  --limit N         at most N names (default 1000)
  --reveal-owners   show owner ids in full (they let anyone release the hold)
  --json            print JSON instead of text
  --force           required by unlock: the holder learns only at its next renewal
  -h, --help        this help

Environment:
  UPSTASH_REDIS_REST_URL    REST URL of the database (Upstash, or edgelock's rest-server)
  UPSTASH_REDIS_REST_TOKEN  its token

Exit codes: 0 done, 1 failed or nothing found, 2 bad command line or environment.
`;
