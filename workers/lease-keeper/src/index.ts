// The lease-keeper Worker: the Durable Object class, and a front door that checks the shared
// secret and routes each request to its lease's object. Callers on Cloudflare may bind the
// class directly (script_name "edgelock-lease-keeper"); others call this Worker over HTTPS.
import { leaseKeeperWorker } from "@edgelock/cloudflare";

export { LeaseKeeper } from "@edgelock/cloudflare";

export default leaseKeeperWorker({ binding: "LEASE_KEEPER" });
