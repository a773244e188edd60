// Your own lease-keeper Worker: the Durable Object from @edgelock/cloudflare, plus a front door
// that checks EDGELOCK_KEEPER_SECRET and routes each request to its lease's object.
import { leaseKeeperWorker } from "@edgelock/cloudflare";

export { LeaseKeeper } from "@edgelock/cloudflare";

export default leaseKeeperWorker({ binding: "LEASE_KEEPER" });
