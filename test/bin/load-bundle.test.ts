// The bundle loader's code cache, on real files: written once (0600 in a 0700 folder), used by the next
// launch, and ignored when missing, corrupt, stale or rejected by V8, the bundle running either way.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript next to bin/rudder.js, without type declarations
import { cacheFileFor, lazyModule, loadBundle, readCache } from "../../bin/load-bundle.js";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { startScriptedServer } from "../helpers/sse-server.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

type Vendor = { file: string; hash: string; modules: string[]; deferred?: boolean };
type Loaded = {
	exports: { main: () => number; later: () => number; url: string; file: string };
	status: string;
	stage?: string;
	saveCache: (stage?: "start-up" | "reply") => boolean;
};
const load = loadBundle as (options: {
	file: string;
	bundleHash: string;
	cacheDir?: string;
	vendors?: Vendor[];
	log?: (line: string) => void;
}) => Loaded;
const cachedStage = (file: string) => (readCache(file) as { stage: string } | undefined)?.stage;

let dir: string;
let cacheDir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-load-bundle-"));
	cacheDir = join(dir, "cache", "code");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A CommonJS bundle with enough functions for V8 to cache, answering `answer`; `later()` runs fifty
 * more (as a reply would), compiled only when it is called.
 */
function writeBundle(name: string, answer: number): string {
	const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join("\n");
	const replyHelpers = Array.from({ length: 50 }, (_, i) => `function g${i}(x) { return [x, ${i}].map((y) => y * 2).join(",").length; }`);
	const later = `exports.later = () => ${replyHelpers.map((_, i) => `g${i}(${i})`).join(" + ")};`;
	const file = join(dir, name);
	writeFileSync(
		file,
		`${helpers}\n${replyHelpers.join("\n")}\nexports.main = () => f0(${answer});\n${later}\nexports.url = __rudderBundleUrl;\nexports.file = __filename;\n`,
	);
	return file;
}

/** The main script's cache file name for the build in dist/bundle. */
const mainCacheName = () => {
	const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "dist", "bundle", "bundle.json"), "utf8"));
	return `${process.version}-${process.arch}-${manifest.hash}.bin`;
};

const mode = (path: string) => statSync(path).mode & 0o777;

describe("loadBundle", () => {
	it("runs the bundle, writes the cache once (0600 in a 0700 folder), and the next launch uses it", () => {
		const file = writeBundle("rudder.cjs", 41);
		const first = load({ file, bundleHash: "aaaa", cacheDir });
		expect([first.status, first.exports.main(), first.exports.url, first.exports.file]).toEqual([
			"missing",
			41,
			pathToFileURL(file).href,
			file,
		]);
		expect(first.saveCache()).toBe(true);
		expect(first.saveCache()).toBe(false); // once
		const cacheFile = cacheFileFor(cacheDir, "aaaa");
		expect(cacheFile).toBe(join(cacheDir, `${process.version}-${process.arch}-aaaa.bin`));
		expect([mode(cacheDir), mode(cacheFile)]).toEqual([0o700, 0o600]);
		expect(readdirSync(cacheDir)).toEqual([`${process.version}-${process.arch}-aaaa.bin`]);

		const second = load({ file, bundleHash: "aaaa", cacheDir });
		expect([second.status, second.exports.main()]).toEqual(["used", 41]);
		expect(second.saveCache()).toBe(false); // nothing to write
	});

	it("adds the functions of a first reply in a second stage, once, and a later launch starts with them", () => {
		const file = writeBundle("rudder.cjs", 9);
		const cacheFile = cacheFileFor(cacheDir, "s");
		const first = load({ file, bundleHash: "s", cacheDir });
		expect(first.saveCache("start-up")).toBe(true);
		expect(cachedStage(cacheFile)).toBe("start-up");
		const startUpSize = statSync(cacheFile).size;

		// A process over the start-up cache answers a prompt, then saves the reply stage (once).
		const second = load({ file, bundleHash: "s", cacheDir });
		expect([second.status, second.stage, second.saveCache("start-up")]).toEqual(["used", "start-up", false]);
		expect(second.exports.later()).toBeGreaterThan(0);
		expect(second.saveCache("reply")).toBe(true);
		expect(second.saveCache("reply")).toBe(false);
		expect(cachedStage(cacheFile)).toBe("reply");
		// V8's data made after `later` ran holds its fifty functions as well as what came from the cache.
		expect(statSync(cacheFile).size).toBeGreaterThan(startUpSize + 2000);
		expect([mode(cacheDir), mode(cacheFile)]).toEqual([0o700, 0o600]);

		const third = load({ file, bundleHash: "s", cacheDir });
		expect([third.status, third.stage, third.exports.main(), third.exports.later()]).toEqual(["used", "reply", 9, second.exports.later()]);
		expect([third.saveCache("start-up"), third.saveCache("reply")]).toEqual([false, false]);
	});

	it("a process without a cache may write both stages; a reply stage written first is never downgraded", () => {
		const file = writeBundle("rudder.cjs", 4);
		const cacheFile = cacheFileFor(cacheDir, "t");
		const loaded = load({ file, bundleHash: "t", cacheDir });
		loaded.exports.later();
		expect(loaded.saveCache("reply")).toBe(true);
		expect(loaded.saveCache("start-up")).toBe(false); // a start-up save due later finds the reply stage written
		expect(cachedStage(cacheFile)).toBe("reply");
	});

	it("ignores a cache of an unknown stage, of the first format, or whose stage byte was changed", () => {
		const file = writeBundle("rudder.cjs", 6);
		const cacheFile = cacheFileFor(cacheDir, "u");
		load({ file, bundleHash: "u", cacheDir }).saveCache("start-up");
		const good = readFileSync(cacheFile);
		const head = "rudder-code-cache-2\n".length;
		const flipped = Buffer.from(good);
		flipped[head] = 1; // "reply", but the digest covers the stage
		const unknown = Buffer.from(good);
		unknown[head] = 7;
		const firstFormat = Buffer.concat([Buffer.from("rudder-code-cache-1\n"), good.subarray(head + 1)]);
		for (const bytes of [flipped, unknown, firstFormat]) {
			writeFileSync(cacheFile, bytes);
			expect(readCache(cacheFile)).toBeUndefined();
			const loaded = load({ file, bundleHash: "u", cacheDir });
			expect([loaded.status, loaded.exports.main()]).toEqual(["missing", 6]);
		}
	});

	it("never reads the cache of another Node version, and removes it when writing its own", () => {
		const file = writeBundle("rudder.cjs", 8);
		load({ file, bundleHash: "v", cacheDir }).saveCache("reply");
		const own = cacheFileFor(cacheDir, "v");
		// What an older Node left: the same bundle, another version in the name.
		const stale = join(cacheDir, `v18.0.0-${process.arch}-v.bin`);
		writeFileSync(stale, readFileSync(own));
		rmSync(own);
		const loaded = load({ file, bundleHash: "v", cacheDir });
		expect([loaded.status, loaded.exports.main()]).toEqual(["missing", 8]);
		expect(loaded.saveCache("start-up")).toBe(true);
		expect(readdirSync(cacheDir)).toEqual([`${process.version}-${process.arch}-v.bin`]);
	});

	it("runs a vendor script only when the bundle first requires one of its modules, each with its own cache", () => {
		// The vendor script counts its runs in a global, and exports two modules.
		writeFileSync(
			join(dir, "vendor-x.cjs"),
			`globalThis.vendorRuns = (globalThis.vendorRuns ?? 0) + 1;\n${Array.from({ length: 30 }, (_, i) => `function v${i}(x) { return x * ${i}; }`).join("\n")}\nmodule.exports = { "pkg/a": { a: () => v3(2) }, "pkg/b": { b: () => v4(2) } };\n`,
		);
		const vendors = [{ file: "vendor-x.cjs", hash: "vx", modules: ["pkg/a", "pkg/b"] }];
		const file = join(dir, "rudder.cjs");
		writeFileSync(
			file,
			`exports.main = () => require("pkg/a").a() + require("pkg/b").b() + require("node:path").sep.length;\nexports.later = () => 0;\n`,
		);
		const g = globalThis as { vendorRuns?: number };
		g.vendorRuns = 0;
		const first = load({ file, bundleHash: "m", cacheDir, vendors });
		expect(g.vendorRuns).toBe(0); // not at load
		expect(first.exports.main()).toBe(6 + 8 + 1);
		expect(first.exports.main()).toBe(15);
		expect(g.vendorRuns).toBe(1); // once, for both of its modules
		expect(first.saveCache("start-up")).toBe(true);
		const names = [`${process.version}-${process.arch}-m.bin`, `${process.version}-${process.arch}-vx.bin`];
		expect(readdirSync(cacheDir).sort()).toEqual(names);
		for (const name of names) expect(cachedStage(join(cacheDir, name))).toBe("start-up");

		const second = load({ file, bundleHash: "m", cacheDir, vendors });
		expect([second.status, second.exports.main()]).toEqual(["used", 15]);
		// Both came from their caches: a reply-stage save rewrites both, and nothing else is in the folder.
		expect(second.saveCache("reply")).toBe(true);
		expect(readdirSync(cacheDir).sort()).toEqual(names);
		for (const name of names) expect(cachedStage(join(cacheDir, name))).toBe("reply");

		// Another build of the vendor script (another hash): its old cache goes when the new one is written.
		const rebuilt = [{ ...vendors[0], hash: "vy" }];
		const third = load({ file, bundleHash: "m", cacheDir, vendors: rebuilt });
		expect(third.exports.main()).toBe(15);
		expect(third.saveCache("reply")).toBe(true);
		expect(readdirSync(cacheDir).sort()).toEqual([names[0], `${process.version}-${process.arch}-vy.bin`]);
	});

	it("runs a deferred vendor script on the first use of one of its exports, not when the bundle requires it", () => {
		writeFileSync(
			join(dir, "vendor-d.cjs"),
			`globalThis.deferredRuns = (globalThis.deferredRuns ?? 0) + 1;\nclass Parser { constructor(n) { this.n = n; } twice() { return this.n * 2; } }\nmodule.exports = { md: { Parser, version: 3 } };\n`,
		);
		const vendors = [{ file: "vendor-d.cjs", hash: "vd", modules: ["md"], deferred: true }];
		const file = join(dir, "rudder.cjs");
		// As esbuild emits it: the require at load, the exports read where they are used.
		writeFileSync(
			file,
			`var md = require("md");\nexports.main = () => new md.Parser(4).twice() + md.version;\nexports.later = () => "version" in md;\n`,
		);
		const g = globalThis as { deferredRuns?: number };
		g.deferredRuns = 0;
		const lines: string[] = [];
		const first = load({ file, bundleHash: "d", cacheDir, vendors, log: (line) => lines.push(line) });
		expect(g.deferredRuns).toBe(0);
		expect(lines.some((l) => l.startsWith("vendor-d.cjs"))).toBe(false);
		expect([first.exports.main(), first.exports.main(), first.exports.later()]).toEqual([11, 11, true]);
		expect(g.deferredRuns).toBe(1);
		// Its cache is saved with the others once it has run.
		expect(first.saveCache("start-up")).toBe(true);
		expect(readdirSync(cacheDir)).toContain(`${process.version}-${process.arch}-vd.bin`);
	});

	it("a lazy module is loaded on its first use, once, and reads, lists and tests keys as the module itself", () => {
		let loads = 0;
		const real = { spawn: (cmd: string) => `ran ${cmd}`, constants: { a: 1 } };
		const lazy = lazyModule(() => {
			loads++;
			return real;
		}) as typeof real;
		expect(loads).toBe(0);
		expect(lazy.spawn("ls")).toBe("ran ls");
		expect(["spawn" in lazy, "nope" in lazy, Object.keys(lazy), lazy.constants]).toEqual([
			true,
			false,
			["spawn", "constants"],
			real.constants,
		]);
		expect({ ...lazy }).toEqual(real);
		expect(loads).toBe(1);
	});

	it("answers the bundle's require of child_process with the real module, loaded on first use", () => {
		const file = join(dir, "rudder.cjs");
		writeFileSync(
			file,
			`var cp = require("node:child_process");\nexports.main = () => cp.execFileSync(process.execPath, ["-e", "process.stdout.write('17')"], { encoding: "utf8" });\nexports.later = () => typeof cp.spawn;\n`,
		);
		const loaded = load({ file, bundleHash: "cp", cacheDir });
		expect([loaded.exports.main(), loaded.exports.later()]).toEqual(["17", "function"]);
	});

	it("ignores a corrupt or truncated cache, runs the bundle, and writes a good one", () => {
		const file = writeBundle("rudder.cjs", 7);
		load({ file, bundleHash: "h", cacheDir }).saveCache();
		const cacheFile = cacheFileFor(cacheDir, "h");
		const bytes = readFileSync(cacheFile);
		bytes[bytes.length - 10] ^= 0xff;
		writeFileSync(cacheFile, bytes);
		expect(readCache(cacheFile)).toBeUndefined();
		const corrupt = load({ file, bundleHash: "h", cacheDir });
		expect([corrupt.status, corrupt.exports.main()]).toEqual(["missing", 7]);
		expect(corrupt.saveCache()).toBe(true);
		expect(load({ file, bundleHash: "h", cacheDir }).status).toBe("used");

		for (const junk of [Buffer.alloc(0), Buffer.from("rudder-code-cache-2\n"), bytes.subarray(0, 40)]) {
			writeFileSync(cacheFile, junk);
			const loaded = load({ file, bundleHash: "h", cacheDir });
			expect([loaded.status, loaded.exports.main()]).toEqual(["missing", 7]);
		}
	});

	it("never reads the cache of another bundle, and removes it when writing its own", () => {
		const old = writeBundle("old.cjs", 1);
		load({ file: old, bundleHash: "old", cacheDir }).saveCache();
		const file = writeBundle("rudder.cjs", 2);
		const loaded = load({ file, bundleHash: "new", cacheDir });
		expect([loaded.status, loaded.exports.main()]).toEqual(["missing", 2]);
		loaded.saveCache();
		expect(readdirSync(cacheDir)).toEqual([`${process.version}-${process.arch}-new.bin`]);
	});

	it("runs the bundle when V8 rejects a well-formed cache made from other source, and replaces it", () => {
		const other = writeBundle("other.cjs", 3);
		const made = load({ file: other, bundleHash: "x", cacheDir });
		made.saveCache();
		// The same name (a hash that lied) over different source: V8's own check refuses the data.
		writeFileSync(other, `${readFileSync(other, "utf8")}\nexports.extra = () => 0;\n`.repeat(3));
		const loaded = load({ file: other, bundleHash: "x", cacheDir });
		expect([loaded.status, loaded.exports.main()]).toEqual(["rejected", 3]);
		expect(loaded.saveCache()).toBe(true);
		expect(load({ file: other, bundleHash: "x", cacheDir }).status).toBe("used");
	});

	it("tells its log what became of each cache (missing, rejected, used) and each save", () => {
		const file = writeBundle("rudder.cjs", 4);
		const lines: string[] = [];
		const log = (line: string) => lines.push(line.replace(/\d+\.\d ms/g, "N ms"));
		load({ file, bundleHash: "l", cacheDir, log }).saveCache();
		writeFileSync(file, `${readFileSync(file, "utf8")}\nexports.extra = () => 0;\n`.repeat(3));
		load({ file, bundleHash: "l", cacheDir, log }).saveCache();
		load({ file, bundleHash: "l", cacheDir, log }).saveCache();
		const name = `${process.version}-${process.arch}-l.bin`;
		expect(lines).toEqual([
			"rudder.cjs cache missing: read+compile N ms, run N ms",
			`${name} written (start-up): N ms`,
			"rudder.cjs cache rejected: read+compile N ms, run N ms",
			`${name} written (start-up): N ms`,
			"rudder.cjs cache used (start-up): read+compile N ms, run N ms",
		]);
	});

	it("runs without a cache when its folder cannot be made, and saving says no instead of throwing", () => {
		const blocker = join(dir, "a-file");
		writeFileSync(blocker, "");
		const file = writeBundle("rudder.cjs", 5);
		const loaded = load({ file, bundleHash: "h", cacheDir: join(blocker, "code") });
		expect([loaded.status, loaded.exports.main(), loaded.saveCache()]).toEqual(["missing", 5, false]);
	});

	it("tightens a cache folder that others could read", () => {
		mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
		chmodSync(cacheDir, 0o755);
		load({ file: writeBundle("rudder.cjs", 1), bundleHash: "h", cacheDir }).saveCache();
		expect(mode(cacheDir)).toBe(0o700);
	});
});

describe("bin/rudder.js with the built bundle", () => {
	const bin = join(import.meta.dirname, "..", "..", "bin", "rudder.js");

	/** An RPC session left open until a valid code cache is there (written a second in), then closed. */
	async function runUntilCached(env: NodeJS.ProcessEnv, folder: string): Promise<number | null> {
		const home = env.RUDDER_HOME as string;
		mkdirSync(home, { recursive: true });
		const models = [{ id: "m", name: "m", contextWindow: 1000, maxTokens: 100 }];
		const provider = { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models };
		writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: provider } }));
		const args = [bin, "--mode", "rpc", "--no-session", "--model", "local/m"];
		const child = spawn(process.execPath, args, { env, stdio: ["pipe", "ignore", "ignore"] });
		const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
		const cached = () => existsSync(join(folder, mainCacheName())) && readCache(join(folder, mainCacheName())) !== undefined;
		for (let i = 0; i < 300 && !cached(); i++) await sleep(50);
		child.stdin.end();
		return exited;
	}

	it("writes the code cache in XDG_CACHE_HOME a second in, and a corrupt one is replaced", async () => {
		const env = { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), RUDDER_HOME: join(dir, "home") };
		const folder = join(dir, "xdg", "rudder", "code");
		expect(await runUntilCached(env, folder)).toBe(0);
		const name = mainCacheName();
		expect(readdirSync(folder)).toContain(name);
		expect(name).toMatch(new RegExp(`^${process.version}-${process.arch}-[0-9a-f]{16}\\.bin$`));
		expect(readCache(join(folder, name))).toBeDefined();
		writeFileSync(join(folder, name), "rudder-code-cache-2\ngarbage");
		expect(await runUntilCached(env, folder)).toBe(0);
		expect(readCache(join(folder, name))).toBeDefined();
	});

	/** An RPC session answering one prompt from a 127.0.0.1 OpenAI-wire server, open until `done()`, then closed. */
	async function runOneReply(env: NodeJS.ProcessEnv, done: () => boolean): Promise<{ code: number | null; replies: number }> {
		const server = await startScriptedServer();
		try {
			server.enqueue({ kind: "sse", chunks: [textBody("Here is `code`:\n\n```ts\nconst a = 1;\n```\n")] });
			const home = env.RUDDER_HOME as string;
			mkdirSync(home, { recursive: true });
			const models = [{ id: "m", name: "m", contextWindow: 1000, maxTokens: 100 }];
			const provider = { baseUrl: server.url, api: "openai-completions", apiKey: "k", models };
			writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: provider } }));
			const args = [bin, "--mode", "rpc", "--no-session", "--model", "local/m"];
			const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "ignore"] });
			let out = "";
			child.stdout.on("data", (d) => (out += d));
			const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
			child.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: "hi" })}\n`);
			for (let i = 0; i < 200 && !(out.includes('"agent_end"') && done()); i++) await sleep(50);
			child.stdin.end();
			return { code: await exited, replies: server.requests.length };
		} finally {
			await server.close();
		}
	}

	it("adds the first reply's functions to the cache once idle after it; the next process uses that and writes none", async () => {
		const env = { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), RUDDER_HOME: join(dir, "home") };
		const folder = join(dir, "xdg", "rudder", "code");
		const name = mainCacheName();
		const stageNow = () => (existsSync(join(folder, name)) ? cachedStage(join(folder, name)) : undefined);
		expect(await runOneReply(env, () => stageNow() === "reply")).toEqual({ code: 0, replies: 1 });
		const files = readdirSync(folder).sort();
		const written = statSync(join(folder, name)).mtimeMs;
		// Long enough for both saves (a second in, and idle after the reply) had this process made any.
		let waited = false;
		setTimeout(() => (waited = true), 3500);
		expect(await runOneReply(env, () => waited)).toEqual({ code: 0, replies: 1 });
		expect(readdirSync(folder).sort()).toEqual(files);
		expect([stageNow(), statSync(join(folder, name)).mtimeMs]).toEqual(["reply", written]);
	}, 20_000);

	it("the built bundle keeps MCP, the ACP SDK, highlight.js and the HTML libraries in scripts of their own, reached through require", () => {
		const bundleDir = join(import.meta.dirname, "..", "..", "dist", "bundle");
		const manifest = JSON.parse(readFileSync(join(bundleDir, "bundle.json"), "utf8")) as { file: string; vendors: Vendor[] };
		const byFile = Object.fromEntries(manifest.vendors.map((v) => [v.file, v.modules]));
		expect(byFile["vendor-mcp.cjs"]).toEqual(
			expect.arrayContaining(["@modelcontextprotocol/sdk/client/index.js", "@modelcontextprotocol/sdk/client/stdio.js"]),
		);
		// Only acp mode needs the ACP SDK and its schemas: no other mode parses them.
		expect(byFile["vendor-acp.cjs"]).toEqual(["@agentclientprotocol/sdk"]);
		expect(byFile["vendor-highlight.cjs"]).toEqual(
			expect.arrayContaining(["highlight.js/lib/core", "highlight.js/lib/languages/typescript"]),
		);
		// web_fetch's HTML to Markdown (~290 KB), from the first HTML page only.
		expect(byFile["vendor-html.cjs"]).toEqual(["node-html-markdown", "node-html-parser"]);
		const main = readFileSync(join(bundleDir, manifest.file), "utf8");
		for (const { file, modules } of manifest.vendors) {
			expect(existsSync(join(bundleDir, file))).toBe(true);
			// Never import(): Node would load the package's own files, not the script.
			for (const m of modules) expect([main.includes(`require("${m}")`), main.includes(`import("${m}")`)]).toEqual([true, false]);
		}
	});

	it("web_fetch of an HTML page runs the HTML script of the built bundle, loaded only then", async () => {
		const server = await startScriptedServer();
		const page = createServer((_req, res) => {
			res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
			res.end(
				"<html><head><title>Docs</title><script>evil()</script></head><body><main><h1>Install</h1><p>Run <code>npm i</code>.</p></main></body></html>",
			);
		});
		await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
		try {
			const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/docs`;
			server.enqueue({ kind: "sse", chunks: [toolCallBody("web_fetch", { url })] }, { kind: "sse", chunks: [textBody("done")] });
			const home = join(dir, "home");
			mkdirSync(home, { recursive: true });
			const provider = {
				baseUrl: server.url,
				api: "openai-completions",
				apiKey: "k",
				models: [{ id: "m", name: "m", contextWindow: 100000, maxTokens: 100 }],
			};
			writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: provider } }));
			const debugLog = join(dir, "cache.log");
			const env = { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), RUDDER_HOME: home, RUDDER_DEBUG_CODE_CACHE: debugLog };
			const args = [bin, "-p", "read the docs", "--no-session", "--model", "local/m", "--allow", "web_fetch(domain:127.0.0.1)"];
			const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
			const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
			expect(code).toBe(0);
			const result = JSON.stringify(server.requests[1]?.body.messages.at(-1));
			expect(result).toContain("# Install");
			expect(result).toContain("Run `npm i`.");
			expect(result).not.toContain("evil()");
			expect(readFileSync(debugLog, "utf8")).toMatch(/vendor-html\.cjs cache missing/);
		} finally {
			page.close();
			await server.close();
		}
	}, 20_000);

	it("writes none for a run over before start-up ends (--version)", () => {
		const env = { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), RUDDER_HOME: join(dir, "home") };
		expect(execFileSync(process.execPath, [bin, "--version"], { env, encoding: "utf8" })).toMatch(/^\d+\.\d+\.\d+\n$/);
		expect(existsSync(join(dir, "xdg", "rudder", "code"))).toBe(false);
	});
});

describe("the app in a real terminal (tmux) and its code cache", () => {
	const term = tmuxAppPerTest("rudder-code-cache");

	it("in the app, writes the start-up cache once the first screen is up and the keyboard rests, not under keys", async () => {
		const { home } = await term.setUp();
		const log = join(home.rudderHome, "code-cache.log");
		home.env.RUDDER_DEBUG_CODE_CACHE = log;
		await term.start(["--no-session", "--model", "mock/mock-1"]);
		// marked's script is deferred: the first screen has no markdown, so it has not run.
		expect(readFileSync(log, "utf8")).toMatch(/^[\d.]+ ms rudder\.cjs cache missing/m);
		expect(readFileSync(log, "utf8")).not.toContain("vendor-marked.cjs");
		const file = join(term.home.rudderHome, "cache", "code", mainCacheName());
		// Keys from the first screen on, for longer than a second (when a save on a timer would come).
		const typedUntil = Date.now() + 1200;
		let typed = "";
		while (Date.now() < typedUntil) {
			term.sendText("x");
			typed += "x";
			expect(existsSync(file), "a cache written while keys were coming").toBe(false);
			await sleep(60);
		}
		for (let i = 0; i < 200 && !existsSync(file); i++) await sleep(50);
		expect(readCache(file)?.stage).toBe("start-up");
		await term.waitForScreen((s) => s.includes(typed), "the typed keys");
		// Its first use (the markdown warm-up once typing rests) runs it.
		for (let i = 0; i < 200 && !readFileSync(log, "utf8").includes("vendor-marked.cjs"); i++) await sleep(50);
		expect(readFileSync(log, "utf8")).toMatch(/vendor-marked\.cjs cache missing/);
	}, 30_000);
});
