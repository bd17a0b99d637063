// The bundle loader's code cache, on real files: written once (0600 in a 0700 folder), used by the next
// launch, and ignored when missing, corrupt, stale or rejected by V8, the bundle running either way.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript next to bin/rudder.js, without type declarations
import { cacheFileFor, loadBundle, readCache } from "../../bin/load-bundle.js";

type Loaded = { exports: { main: () => number; url: string; file: string }; status: string; saveCache: () => boolean };
const load = loadBundle as (options: { file: string; bundleHash: string; cacheDir?: string }) => Loaded;

let dir: string;
let cacheDir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-load-bundle-"));
	cacheDir = join(dir, "cache", "code");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A CommonJS bundle with enough functions for V8 to cache, answering `answer`. */
function writeBundle(name: string, answer: number): string {
	const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join("\n");
	const file = join(dir, name);
	writeFileSync(file, `${helpers}\nexports.main = () => f0(${answer});\nexports.url = __rudderBundleUrl;\nexports.file = __filename;\n`);
	return file;
}

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

		for (const junk of [Buffer.alloc(0), Buffer.from("rudder-code-cache-1\n"), bytes.subarray(0, 40)]) {
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
		const cached = () => existsSync(folder) && readdirSync(folder).some((n) => n.endsWith(".bin") && readCache(join(folder, n)));
		for (let i = 0; i < 300 && !cached(); i++) await sleep(50);
		child.stdin.end();
		return exited;
	}

	it("writes the code cache in XDG_CACHE_HOME a second in, and a corrupt one is replaced", async () => {
		const env = { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), RUDDER_HOME: join(dir, "home") };
		const folder = join(dir, "xdg", "rudder", "code");
		expect(await runUntilCached(env, folder)).toBe(0);
		const [name] = readdirSync(folder);
		expect(name).toMatch(new RegExp(`^${process.version}-${process.arch}-[0-9a-f]{16}\\.bin$`));
		expect(readCache(join(folder, name))).toBeDefined();
		writeFileSync(join(folder, name), "rudder-code-cache-1\ngarbage");
		expect(await runUntilCached(env, folder)).toBe(0);
		expect(readCache(join(folder, name))).toBeDefined();
	});

	it("writes none for a run over before start-up ends (--version)", () => {
		const env = { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), RUDDER_HOME: join(dir, "home") };
		expect(execFileSync(process.execPath, [bin, "--version"], { env, encoding: "utf8" })).toMatch(/^\d+\.\d+\.\d+\n$/);
		expect(existsSync(join(dir, "xdg", "rudder", "code"))).toBe(false);
	});
});
