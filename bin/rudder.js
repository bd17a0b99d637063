#!/usr/bin/env node
// React's development build costs about twice the CPU per update; the CLI always runs the production one.
process.env.NODE_ENV ??= "production";
let main;
try {
	({ main } = await import("../dist/src/cli/main.js"));
} catch (error) {
	const notBuilt = error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/src/cli/main.js");
	process.stderr.write(`rudder: ${notBuilt ? "not built yet: run `npm run build` first" : String(error?.message ?? error).split("\n")[0]}\n`);
	process.exit(1);
}
const code = await main(process.argv);
// Let piped stdout drain before exiting: process.exit would cut off a slow reader.
process.stdout.write("", () => process.exit(code));
