import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointOptions, openCheckpoints, storeDirFor } from "../../../src/session/checkpoints/index.js";
import { type CheckpointRecord, changedByRun, formatChange, previewRewind } from "../../../src/session/checkpoints/rewind-plan.js";
import { fingerprint } from "../../helpers/fingerprint.js";

let root: string;
let ws: string;
let store: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-cp-"));
	ws = join(root, "project");
	store = join(root, "store");
	mkdirSync(ws);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const put = (path: string, text: string | Buffer) => {
	mkdirSync(join(ws, path, ".."), { recursive: true });
	writeFileSync(join(ws, path), text);
};
const mode = (path: string) => statSync(join(ws, path)).mode & 0o777;

/** Opens a store and takes the first snapshot (a full one: it waits for git). */
async function open(options: CheckpointOptions) {
	const opened = await openCheckpoints(options);
	return { ...opened, first: await opened.engine.snapshot() };
}

const git = (...args: string[]) => execFileSync("git", args, { cwd: ws, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function projectWithGit() {
	put("a.ts", "one\ntwo\nthree\n");
	put("g.txt", "to be removed\n");
	put("h.sh", "echo h\n");
	put("src/keep.ts", "export const keep = 1;\n");
	put(".gitignore", "ignored/\n*.log\n");
	put("ignored/cache.bin", "cache v1");
	put("debug.log", "log v1");
	git("init", "--quiet");
	git("add", ".");
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "init");
	git("stash", "list");
}

describe("checkpoints: shadow git engine", () => {
	it("restores what edit, write and bash changed, byte-exact with modes, and never touches the project's .git", async () => {
		projectWithGit();
		put("work-in-progress.ts", "not committed\n");
		const dotGitBefore = fingerprint(join(ws, ".git"));
		const { engine, first, notice } = await open({ workspace: ws, storeRoot: store });
		expect(engine.kind).toBe("git");
		expect(notice).toBeUndefined();

		// The "run": an edit, a write of a new file, and a bash command that writes, removes and chmods.
		put("a.ts", "one\nTWO\nthree\nfour\n");
		put("src/new/b.ts", "brand new\n");
		execFileSync("bash", ["-c", "echo x > f && rm g.txt && chmod +x h.sh"], { cwd: ws });
		put("ignored/cache.bin", "cache v2");
		expect(mode("h.sh") & 0o111).not.toBe(0);

		const after = await engine.snapshot();
		const changes = await engine.changes(first, after);
		expect(changes).toEqual([
			{ path: "a.ts", status: "modified", added: 2, removed: 1 },
			{ path: "f", status: "added", added: 1, removed: 0 },
			{ path: "g.txt", status: "deleted", added: 0, removed: 1 },
			{ path: "h.sh", status: "modified", added: 0, removed: 0 },
			{ path: "src/new/b.ts", status: "added", added: 1, removed: 0 },
		]);

		const preview = await engine.preview(first);
		expect(preview.map((c) => `${c.status} ${c.path}`)).toEqual([
			"modified a.ts",
			"deleted f",
			"added g.txt",
			"modified h.sh",
			"deleted src/new/b.ts",
		]);
		await engine.restore(first);
		expect(readFileSync(join(ws, "a.ts"), "utf8")).toBe("one\ntwo\nthree\n");
		expect(readFileSync(join(ws, "g.txt"), "utf8")).toBe("to be removed\n");
		expect(existsSync(join(ws, "f"))).toBe(false);
		expect(existsSync(join(ws, "src", "new"))).toBe(false);
		expect(mode("h.sh") & 0o111).toBe(0);
		expect(readFileSync(join(ws, "work-in-progress.ts"), "utf8")).toBe("not committed\n");
		// Ignored files are the user's: neither captured nor restored.
		expect(readFileSync(join(ws, "ignored", "cache.bin"), "utf8")).toBe("cache v2");
		expect(fingerprint(join(ws, ".git"))).toEqual(dotGitBefore);
		expect(git("status", "--porcelain")).toBe("?? work-in-progress.ts\n");
	});

	it("restores ignored files the edit/write tools changed (copies beside git); ignored files only bash changed stay as they are", async () => {
		projectWithGit();
		const { engine, observer, first } = await open({ workspace: ws, storeRoot: store });
		expect(engine.kind).toBe("git");
		// A tool writes: the observer sees each file first, as edit/write call it.
		for (const [path, text] of [
			["ignored/cache.bin", "cache v2"],
			["ignored/new/out.js", "made by write"],
			["a.ts", "edited\n"],
		]) {
			await observer?.beforeMutate(join(ws, path));
			put(path, text);
		}
		put("debug.log", "log v2 (bash)");
		const after = await engine.snapshot();
		expect((await engine.changes(first, after)).map((c) => `${c.status} ${c.path}`)).toEqual([
			"modified a.ts",
			"modified ignored/cache.bin",
			"added ignored/new/out.js",
		]);
		expect((await engine.preview(first)).map((c) => `${c.status} ${c.path}`)).toEqual([
			"modified a.ts",
			"modified ignored/cache.bin",
			"deleted ignored/new/out.js",
		]);
		await engine.restore(first);
		expect(readFileSync(join(ws, "ignored", "cache.bin"), "utf8")).toBe("cache v1");
		expect(existsSync(join(ws, "ignored", "new", "out.js"))).toBe(false);
		expect(readFileSync(join(ws, "a.ts"), "utf8")).toBe("one\ntwo\nthree\n");
		expect(readFileSync(join(ws, "debug.log"), "utf8")).toBe("log v2 (bash)");
	});

	it("can restore forward again, and a snapshot with nothing changed reuses the last one", async () => {
		put("a.txt", "v1\n");
		const { engine, first } = await open({ workspace: ws, storeRoot: store });
		expect(await engine.snapshot()).toBe(first);
		put("a.txt", "v2\n");
		const second = await engine.snapshot();
		expect(second).not.toBe(first);
		await engine.restore(first);
		expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("v1\n");
		await engine.restore(second);
		expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("v2\n");
	});

	it("skips files over the size limit and never overwrites them", async () => {
		put("small.txt", "s\n");
		put("big.bin", Buffer.alloc(2048, 1));
		const { engine, first } = await open({ workspace: ws, storeRoot: store, maxFileBytes: 1024 });
		put("big.bin", Buffer.alloc(4096, 2));
		put("small.txt", "t\n");
		expect((await engine.preview(first)).map((c) => c.path)).toEqual(["small.txt"]);
		await engine.restore(first);
		expect(readFileSync(join(ws, "big.bin"))).toEqual(Buffer.alloc(4096, 2));
		expect(readFileSync(join(ws, "small.txt"), "utf8")).toBe("s\n");
	});

	it("keeps its store under the store root, keyed by the workspace's real path", async () => {
		put("a.txt", "1");
		await open({ workspace: ws, storeRoot: store });
		const viaDots = join(ws, "..", "project");
		expect(await storeDirFor(store, viaDots)).toBe(await storeDirFor(store, ws));
		expect(existsSync(join(await storeDirFor(store, ws), "git"))).toBe(true);
		expect(existsSync(join(ws, ".git"))).toBe(false);
	});

	it("ignores the caller's GIT_DIR and GIT_INDEX_FILE", async () => {
		projectWithGit();
		const dotGitBefore = fingerprint(join(ws, ".git"));
		const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
		process.env.GIT_DIR = join(ws, ".git");
		process.env.GIT_INDEX_FILE = join(ws, ".git", "index");
		try {
			const { engine, first } = await open({ workspace: ws, storeRoot: store });
			put("a.ts", "changed\n");
			await engine.restore(first);
		} finally {
			if (saved.dir === undefined) delete process.env.GIT_DIR;
			else process.env.GIT_DIR = saved.dir;
			if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
			else process.env.GIT_INDEX_FILE = saved.index;
		}
		expect(readFileSync(join(ws, "a.ts"), "utf8")).toBe("one\ntwo\nthree\n");
		expect(fingerprint(join(ws, ".git"))).toEqual(dotGitBefore);
	});
});

describe("checkpoints: a git that dies midway", () => {
	it("is a failed snapshot, not an unhandled EPIPE; the lock it left is removed and the next snapshot works", async () => {
		// Enough paths that the list written to update-index's stdin overflows the pipe: the write fails
		// with EPIPE when git dies without reading it.
		const long = (i: number) => `many/${"d".repeat(100)}-${i % 20}/${"f".repeat(120)}-${i}.txt`;
		for (let i = 0; i < 2000; i++) put(long(i), `${i}\n`);
		const died = join(root, "died");
		const dyingGit = join(root, "dying-git");
		// The first update-index dies as a killed git does: its index lock left behind, stdin unread.
		writeFileSync(
			dyingGit,
			`#!/bin/sh\nfor a in "$@"; do if [ "$a" = update-index ] && [ ! -e '${died}' ]; then touch '${died}' "$GIT_INDEX_FILE.lock"; kill -KILL $$; fi; done\nexec git "$@"\n`,
		);
		chmodSync(dyingGit, 0o755);
		const { engine } = await openCheckpoints({ workspace: ws, storeRoot: store, gitBinary: dyingGit });
		// The snapshot started at opening died; the prompt's own runs after it, on the store it left.
		const second = await engine.snapshot();
		expect(existsSync(died)).toBe(true);
		expect(second.startsWith("+")).toBe(false);
		put(long(1), "changed\n");
		put("new.txt", "new\n");
		await engine.restore(second);
		expect(readFileSync(join(ws, long(1)), "utf8")).toBe("1\n");
		expect(existsSync(join(ws, "new.txt"))).toBe(false);
	});
});

describe("checkpoints: the prompt's wait", () => {
	it("is the full wait while snapshots fit in it, and none once a snapshot took longer (a large tree)", async () => {
		put("a.ts", "a\n");
		const slow = join(root, "slow");
		const slowGit = join(root, "slow-git");
		// While `slow` exists, every file listing takes 1.6 s: a snapshot longer than the 1.5 s wait (a
		// quick one takes a fraction of that, even on a loaded machine).
		writeFileSync(slowGit, `#!/bin/sh\nfor a in "$@"; do [ "$a" = ls-files ] && [ -e '${slow}' ] && sleep 1.6; done\nexec git "$@"\n`);
		chmodSync(slowGit, 0o755);
		const { engine } = await openCheckpoints({ workspace: ws, storeRoot: store, gitBinary: slowGit, promptWaitMs: 1500 });
		const git = engine as unknown as { promptWaitMs(): number };
		await engine.snapshot();
		expect(git.promptWaitMs()).toBe(1500);
		writeFileSync(slow, "");
		await engine.snapshot();
		expect(git.promptWaitMs()).toBe(0);
		// The prompt's point then covers edits only, at once; the snapshot goes on and, quick again, restores the wait.
		put("a.ts", "b\n");
		expect((await engine.promptSnapshot?.())?.id.startsWith("+")).toBe(true);
		rmSync(slow);
		await engine.snapshot();
		expect(git.promptWaitMs()).toBe(1500);
	});
});

describe("checkpoints: file-copy fallback", () => {
	it("is used when git is missing, says so once, and restores files the tools changed", async () => {
		put("a.txt", "original\n");
		put("b.sh", "#!/bin/sh\n");
		chmodSync(join(ws, "b.sh"), 0o755);
		const { engine, observer, first, notice } = await open({ workspace: ws, storeRoot: store, gitBinary: join(root, "no-git") });
		expect(engine.kind).toBe("files");
		expect(notice).toMatch(/bash are not tracked.*git was not found/);
		if (!observer) throw new Error("fallback has an observer");

		// What edit/write do: tell the observer, then change the file.
		await observer.beforeMutate(join(ws, "a.txt"));
		put("a.txt", "edited\nmore\n");
		await observer.beforeMutate(join(ws, "a.txt"));
		put("a.txt", "edited twice\n");
		await observer.beforeMutate(join(ws, "new.txt"));
		put("new.txt", "created\n");
		await observer.beforeMutate(join(ws, "b.sh"));
		put("b.sh", "#!/bin/sh\necho changed\n");
		chmodSync(join(ws, "b.sh"), 0o644);

		const second = await engine.snapshot();
		await observer.beforeMutate(join(ws, "a.txt"));
		put("a.txt", "third\n");

		expect(await engine.changes(first, second)).toEqual([
			{ path: "a.txt", status: "modified", added: 1, removed: 1 },
			{ path: "b.sh", status: "modified", added: 1, removed: 0 },
			{ path: "new.txt", status: "added", added: 1, removed: 0 },
		]);
		await engine.restore(first);
		expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("original\n");
		expect(readFileSync(join(ws, "b.sh"), "utf8")).toBe("#!/bin/sh\n");
		expect(mode("b.sh")).toBe(0o755);
		expect(existsSync(join(ws, "new.txt"))).toBe(false);
	});

	it("a later session reads the copies an earlier one kept", async () => {
		put("a.txt", "original\n");
		const opened = await open({ workspace: ws, storeRoot: store, gitBinary: join(root, "no-git") });
		await opened.observer?.beforeMutate(join(ws, "a.txt"));
		put("a.txt", "edited\n");
		const again = await open({ workspace: ws, storeRoot: store, gitBinary: join(root, "no-git") });
		await again.engine.restore(opened.first);
		expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("original\n");
	});
});

describe("rewind plan", () => {
	it("lists what each run changed and names the files changed outside Rudder since the checkpoint", async () => {
		put("a.txt", "a1\n");
		put("c.txt", "c1\n");
		put("d.txt", "d1\n");
		const { engine, first } = await open({ workspace: ws, storeRoot: store });
		const records: CheckpointRecord[] = [{ entryId: "u1", before: first }];
		put("a.txt", "a2\na2\n"); // run 1
		records[0].after = await engine.snapshot();
		put("c.txt", "c2\n"); // the user, between prompts
		records.push({ entryId: "u2", before: await engine.snapshot() });
		put("d.txt", "d2\n"); // run 2
		records[1].after = await engine.snapshot();
		put("a.txt", "a3\n"); // the user again

		const now = () => engine.snapshot();
		expect((await changedByRun(engine, records[0], now)).map(formatChange)).toEqual(["+2 −1 a.txt"]);
		expect((await changedByRun(engine, records[1], now)).map(formatChange)).toEqual(["+1 −1 d.txt"]);
		const plan = await previewRewind(engine, records, 0);
		expect(plan.changes.map((c) => c.path)).toEqual(["a.txt", "c.txt", "d.txt"]);
		expect(plan.changedOutside).toEqual(["a.txt", "c.txt"]);
		const fromSecond = await previewRewind(engine, records, 1);
		expect(fromSecond.changes.map((c) => c.path)).toEqual(["a.txt", "d.txt"]);
		expect(fromSecond.changedOutside).toEqual(["a.txt"]);
	});
});
