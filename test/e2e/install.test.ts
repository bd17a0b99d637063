// Installation as a user does it: `npm pack`, then `npm install -g` of the tarball into a fresh prefix,
// with no network (--offline, an empty npm cache): the package must carry everything it runs on (the
// esbuild bundle; it has no runtime dependencies). The installed `rudder` then answers from another
// folder. Packs the current build: run `npm run build` first, as for every CLI test.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { textBody } from "../helpers/openai-chunks.js";
import { cliPerTest, runCli } from "../helpers/rudder-cli.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const cli = cliPerTest();

describe("npm pack, then npm install -g of the tarball", () => {
	let root = "";
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("gives a rudder that runs in any folder, installed without the network", { timeout: 120_000 }, async () => {
		root = mkdtempSync(join(tmpdir(), "rudder-install-"));
		const prefix = join(root, "prefix");
		// npm's cache, logs and config in the temp folder: nothing comes from or goes to the user's.
		const npmEnv = {
			PATH: process.env.PATH ?? "/usr/bin:/bin",
			HOME: join(root, "home"),
			npm_config_cache: join(root, "npm-cache"),
			npm_config_userconfig: join(root, "npmrc"),
			npm_config_update_notifier: "false",
		};
		mkdirSync(npmEnv.HOME);
		// --ignore-scripts: `prepare` would rebuild dist/ under the other tests' feet.
		await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", root], { cwd: ROOT, env: npmEnv });
		const tarball = readdirSync(root).find((name) => /^rudder-.*\.tgz$/.test(name));
		expect(tarball).toBeDefined();
		await run("npm", ["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", join(root, tarball as string)], {
			cwd: root,
			env: npmEnv,
		});
		const rudder = join(prefix, "bin", "rudder");

		const { server, home } = await cli.setUp();
		const version = await runCli(["--version"], home, { bin: rudder });
		expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n", stderr: "" });

		server.enqueue({ kind: "sse", chunks: [textBody("Installed and answering.")] });
		const answer = await runCli(["--model", "mock/mock-1", "-p", "are you there?"], home, { bin: rudder });
		expect(answer).toMatchObject({ code: 0, stdout: "Installed and answering.\n", stderr: "" });
		expect(server.requests).toHaveLength(1);
	});
});
