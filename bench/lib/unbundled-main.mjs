// Runs a tree's tsc output (dist/src, no bundle) the way bin/rudder.js runs the bundle, for
// bench/startup-ab.mjs --modules: each module is a file of its own there, so the loader sees each one.
process.env.NODE_ENV ??= "production";
const { main } = await import(`${process.env.STARTUP_TREE}/dist/src/cli/main.js`);
await main(process.argv, { afterStartUp: () => false, afterFirstReply: () => false });
