#!/usr/bin/env node
// React's development build costs about twice the CPU per update; the CLI always runs the production one.
process.env.NODE_ENV ??= "production";
const { main } = await import("../dist/src/cli/main.js");
const code = await main(process.argv);
// Let piped stdout drain before exiting: process.exit would cut off a slow reader.
process.stdout.write("", () => process.exit(code));
