#!/usr/bin/env node
// React's development build costs about twice the CPU per update; the CLI always runs the production one.
process.env.NODE_ENV ??= "production";
// The esbuild bundle (one file on the start-up path) when built; the plain tsc output otherwise.
const candidates = ["../dist/bundle/main.js", "../dist/src/cli/main.js"];
let main;
for (const path of candidates) {
	try {
		({ main } = await import(path));
		break;
	} catch (error) {
		const missing = error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(path.slice(3));
		if (!missing) {
			process.stderr.write(`rudder: ${String(error?.message ?? error).split("\n")[0]}\n`);
			process.exit(1);
		}
	}
}
if (!main) {
	process.stderr.write("rudder: not built yet: run `npm run build` first\n");
	process.exit(1);
}
const code = await main(process.argv);
// Let piped stdout drain before exiting: process.exit would cut off a slow reader.
process.stdout.write("", () => process.exit(code));
