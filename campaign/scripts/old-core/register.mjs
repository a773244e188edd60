import { register } from "node:module";

register("./redirect-core.mjs", import.meta.url);
