import { runCampaign } from "./campaign.ts";
process.on("beforeExit", () => { console.log("beforeExit: loop empty", new Date().toISOString()); });
const r = await runCampaign({ seconds: 20, seed: 1, workers: 12, log: (l) => console.log(new Date().toISOString(), l) });
console.log(r.report);
