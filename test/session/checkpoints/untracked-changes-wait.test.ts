// An edits-only point made whole when its snapshot ends, with real git on real folders: a git whose
// file listing waits while the test holds it (a slow snapshot), edits made meanwhile, and what may
// change files unseen waiting for it.
import { execFileSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readlinkSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OpenedCheckpoints, openCheckpoints, storeDirFor } from "../../../src/session/checkpoints/index.js";
import { type CheckpointRecord, previewRewind } from "../../../src/session/checkpoints/rewind-plan.js";

let root: string;
let ws: string;
let store: string;
let hold: string;
let listing: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-cp-whole-"));
	ws = join(root, "project");
	store = join(root, "store");
	hold = join(root, "hold");
	listing = join(root, "listing");
	mkdirSync(ws);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const put = (path: string, text: string) => writeFileSync(join(ws, path), text);
const read = (path: string) => readFileSync(join(ws, path), "utf8");

/** Until `cond()` holds, checked every 20 ms (the held git's marker appearing). */
async function until(cond: () => boolean): Promise<void> {
	while (!cond()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A store whose git, while `hold` exists, marks `listing` and waits before listing files; with `fail`,
 * it then fails; with `failOn`, that git command always fails (the shadow store full, say).
 */
async function openHeld(options: { fail?: boolean; failOn?: string } = {}): Promise<OpenedCheckpoints> {
	const heldGit = join(root, "held-git");
	const failOn = options.failOn ? `if [ "$a" = ${options.failOn} ]; then echo 'fatal: No space left on device' >&2; exit 128; fi; ` : "";
	writeFileSync(
		heldGit,
		`#!/bin/sh\nfor a in "$@"; do ${failOn}if [ "$a" = ls-files ] && [ -e '${hold}' ]; then touch '${listing}'; while [ -e '${hold}' ] && [ -d '${root}' ]; do sleep 0.02; done; ${options.fail ? "exit 1" : "true"}; fi; done\nexec git "$@"\n`,
	);
	chmodSync(heldGit, 0o755);
	const opened = await openCheckpoints({ workspace: ws, storeRoot: store, gitBinary: heldGit, promptWaitMs: 50 });
	await opened.engine.snapshot();
	return opened;
}

/** A point taken while git is held: edits-only, with its snapshot's end to come. */
async function heldPoint(opened: OpenedCheckpoints) {
	writeFileSync(hold, "");
	const point = await (opened.engine.promptSnapshot?.() as NonNullable<ReturnType<NonNullable<typeof opened.engine.promptSnapshot>>>);
	expect(point.id.startsWith("+")).toBe(true);
	expect(point.whole).toBeDefined();
	await until(() => existsSync(listing));
	return point;
}

/** A held point let go: its whole id, once a command may run. */
async function wholeThenCommand(opened: OpenedCheckpoints): Promise<string> {
	const point = await heldPoint(opened);
	rmSync(hold);
	const whole = await point.whole;
	await opened.engine.untrackedChangesMayStart?.();
	return (whole as { id: string }).id;
}

/** Whether `work` has settled by the time the event loop has turned (it cannot while git is held). */
async function settled(work: Promise<unknown>): Promise<boolean> {
	let done = false;
	void work.then(() => {
		done = true;
	});
	await new Promise((resolve) => setImmediate(resolve));
	return done;
}

describe("checkpoints: an edits-only point made whole", () => {
	it("an edit while the snapshot runs: its copy wins over what git read after it; a file written meanwhile is deleted; later command changes are restored", async () => {
		put("a.ts", "a before\n");
		put("c.ts", "c before\n");
		put("d.ts", "d before\n");
		const opened = await openHeld();
		const point = await heldPoint(opened);
		// edit and write, as the tools do: the copy first, then the change, while git waits to list.
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		put("a.ts", "a edited\n");
		await opened.observer?.beforeMutate(join(ws, "new.ts"));
		put("new.ts", "written meanwhile\n");
		// A command waits for the snapshot.
		const mayStart = opened.engine.untrackedChangesMayStart?.() as Promise<void>;
		expect(await settled(mayStart)).toBe(false);
		rmSync(hold);
		const whole = await point.whole;
		await mayStart;
		expect(whole).toEqual({ id: expect.any(String) });
		const id = (whole as { id: string }).id;
		expect(id).toMatch(/^[0-9a-f]{40}\+f\d+$/);
		// Git read a.ts after the edit: its snapshot (the parent) holds the edited text and the new file;
		// the point's commit has them as they were before the edits.
		const gitDir = join(await storeDirFor(store, ws), "git");
		const show = (rev: string) =>
			execFileSync("git", ["show", rev], { env: { ...process.env, GIT_DIR: gitDir }, encoding: "utf8", stdio: "pipe" });
		const commit = id.split("+")[0];
		expect(show(`${commit}^:a.ts`)).toBe("a edited\n");
		expect(show(`${commit}^:new.ts`)).toBe("written meanwhile\n");
		expect(show(`${commit}:a.ts`)).toBe("a before\n");
		expect(() => show(`${commit}:new.ts`)).toThrow();
		// Then the command runs (bash: a change and a removal nothing recorded).
		put("c.ts", "c changed by a command\n");
		rmSync(join(ws, "d.ts"));
		const preview = (await opened.engine.preview(id)).map((c) => `${c.status} ${c.path}`);
		expect(preview).toEqual(["modified a.ts", "modified c.ts", "added d.ts", "deleted new.ts"]);
		await opened.engine.restore(id);
		expect(read("a.ts")).toBe("a before\n");
		expect(existsSync(join(ws, "new.ts"))).toBe(false);
		expect(read("c.ts")).toBe("c before\n");
		expect(read("d.ts")).toBe("d before\n");
	});

	it("after it is whole, edits to tracked files are git's again: a later command's change is not mistaken for the point's own", async () => {
		put("a.ts", "a before\n");
		const opened = await openHeld();
		const id = await wholeThenCommand(opened);
		// A command changes a.ts, then edit changes it again: the point's state is git's, not the copy.
		put("a.ts", "a changed by a command\n");
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		put("a.ts", "a edited after\n");
		await opened.engine.restore(id);
		expect(read("a.ts")).toBe("a before\n");
	});

	it("a later edits-only point keeps its own copies: an edit after a command is not taken for the earlier point's state", async () => {
		put("x.ts", "x at the first point\n");
		const opened = await openHeld();
		// No edit in the first run; its command changes x.ts.
		const firstId = await wholeThenCommand(opened);
		put("x.ts", "x changed by a command\n");
		// The next prompt's point, its snapshot held again; an edit of x.ts meanwhile is copied for it.
		rmSync(listing);
		const second = await heldPoint(opened);
		await opened.observer?.beforeMutate(join(ws, "x.ts"));
		put("x.ts", "x edited in the second run\n");
		rmSync(hold);
		const secondId = ((await second.whole) as { id: string }).id;
		await opened.engine.restore(firstId);
		expect(read("x.ts")).toBe("x at the first point\n");
		await opened.engine.restore(secondId);
		expect(read("x.ts")).toBe("x changed by a command\n");
	});

	it("a file a run edited while its point's snapshot ran is not named as changed outside Rudder when rewinding further back", async () => {
		put("a.ts", "a at the first point\n");
		const opened = await openHeld();
		const firstBefore = await opened.engine.snapshot();
		put("a.ts", "a after the first run\n");
		const firstAfter = await opened.engine.snapshot();
		// The second prompt's point waits for git; the run edits a.ts meanwhile, and git reads it after.
		const second = await heldPoint(opened);
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		put("a.ts", "a edited in the second run\n");
		rmSync(hold);
		const secondBefore = ((await second.whole) as { id: string }).id;
		const secondAfter = await opened.engine.snapshot();
		const records: CheckpointRecord[] = [
			{ entryId: "1", before: firstBefore, after: firstAfter },
			{ entryId: "2", before: secondBefore, after: secondAfter },
		];
		const preview = await previewRewind(opened.engine, records, 0);
		expect(preview.changes.map((c) => c.path)).toEqual(["a.ts"]);
		expect(preview.changedOutside).toEqual([]);
		// The run's own list names the edit.
		expect((await opened.engine.changes(secondBefore, secondAfter)).map((c) => `${c.status} ${c.path}`)).toEqual(["modified a.ts"]);
	});

	it("a link an edit was asked to change while the snapshot ran stays in the point as git read it (the copies keep files only)", async () => {
		put("target.ts", "target\n");
		symlinkSync("target.ts", join(ws, "link.ts"));
		const opened = await openHeld();
		const point = await heldPoint(opened);
		// edit copies before it refuses a link; the copy can only say "no file here".
		await opened.observer?.beforeMutate(join(ws, "link.ts"));
		await opened.observer?.beforeMutate(join(ws, "other.ts"));
		put("other.ts", "other\n");
		rmSync(hold);
		const id = ((await point.whole) as { id: string }).id;
		rmSync(join(ws, "link.ts"));
		await opened.engine.restore(id);
		expect(readlinkSync(join(ws, "link.ts"))).toBe("target.ts");
		// The file write created meanwhile is not in the point.
		expect(existsSync(join(ws, "other.ts"))).toBe(false);
	});

	it("an edit by the next prompt's run while the previous point's snapshot runs is not taken into that point", async () => {
		put("a.ts", "a before\n");
		const opened = await openHeld();
		// The run's after point, its snapshot held; the next prompt's point comes meanwhile (its own
		// snapshot queued behind), and that run edits a.ts before git lists the files for the first.
		const after = await heldPoint(opened);
		const next = await (opened.engine.promptSnapshot?.() as ReturnType<NonNullable<typeof opened.engine.promptSnapshot>>);
		expect(next.id.startsWith("+")).toBe(true);
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		put("a.ts", "a edited by the next run\n");
		rmSync(hold);
		const afterId = ((await after.whole) as { id: string }).id;
		const nextId = ((await next.whole) as { id: string }).id;
		// Nothing changed between the two points: the edit came after both.
		expect(await opened.engine.changes(afterId, nextId)).toEqual([]);
		await opened.engine.restore(afterId);
		expect(read("a.ts")).toBe("a before\n");
	});

	it("making the point whole fails after git's snapshot ended (store full): it stays edits-only and still covers later edits", async () => {
		put("a.ts", "a before\n");
		put("b.ts", "b before\n");
		const opened = await openHeld({ failOn: "read-tree" });
		const point = await heldPoint(opened);
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		put("a.ts", "a edited during the scan\n");
		rmSync(hold);
		expect(await point.whole).toEqual({ error: expect.stringMatching(/No space left/) });
		await opened.engine.untrackedChangesMayStart?.();
		// The run goes on editing: the point, edits-only, must still undo that.
		await opened.observer?.beforeMutate(join(ws, "b.ts"));
		put("b.ts", "b edited after\n");
		await opened.engine.restore(point.id);
		expect(read("a.ts")).toBe("a before\n");
		expect(read("b.ts")).toBe("b before\n");
	});

	/** a.ts hard-linked as `other`, edited in place (as edit and write do) while the point's snapshot runs. */
	async function linkedEditDuringScan(other: string) {
		put("a.ts", "a before\n");
		linkSync(join(ws, "a.ts"), other);
		const opened = await openHeld();
		const point = await heldPoint(opened);
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		writeFileSync(join(ws, "a.ts"), "a edited\n");
		rmSync(hold);
		const whole = ((await point.whole) as { id: string }).id;
		return { opened, editsOnly: point.id, whole };
	}

	// edit writes in place, so git's post-edit read of a hard link's other name would stay in the point
	// unless that name is copied too.
	it("a hard-linked file edited while the snapshot runs: its other name comes back too", async () => {
		const { opened, whole } = await linkedEditDuringScan(join(ws, "b.ts"));
		await opened.engine.restore(whole);
		expect(read("a.ts")).toBe("a before\n");
		expect(read("b.ts")).toBe("a before\n");
	});

	it("a hard link to a file outside the workspace: a rewind replaces the workspace's name and never writes the outside one", async () => {
		const outside = join(root, "outside.ts");
		const { opened, editsOnly, whole } = await linkedEditDuringScan(outside);
		// Edits-only too: the copies' own restore must not write through the link either.
		await opened.engine.restore(editsOnly);
		expect(read("a.ts")).toBe("a before\n");
		expect(readFileSync(outside, "utf8")).toBe("a edited\n");
		writeFileSync(join(ws, "a.ts"), "a again\n");
		await opened.engine.restore(whole);
		expect(read("a.ts")).toBe("a before\n");
		expect(readFileSync(outside, "utf8")).toBe("a edited\n");
	});

	it("an ignored file edited while the snapshot runs stays out of the point made whole: the run lists it as modified, not deleted", async () => {
		put(".gitignore", "dist/\n");
		mkdirSync(join(ws, "dist"));
		put("dist/x.js", "x before\n");
		const opened = await openHeld();
		const point = await heldPoint(opened);
		await opened.observer?.beforeMutate(join(ws, "dist/x.js"));
		put("dist/x.js", "x edited\n");
		rmSync(hold);
		const id = ((await point.whole) as { id: string }).id;
		const after = await opened.engine.snapshot();
		expect((await opened.engine.changes(id, after)).map((c) => `${c.status} ${c.path}`)).toEqual(["modified dist/x.js"]);
		expect((await opened.engine.preview(id)).map((c) => `${c.status} ${c.path}`)).toEqual(["modified dist/x.js"]);
		await opened.engine.restore(id);
		expect(read("dist/x.js")).toBe("x before\n");
	});

	it("a preview's full snapshot ending while the next prompt's point waits does not stop the copies that point needs", async () => {
		put("a.ts", "a before\n");
		// The n-th file listing marks listing-n and waits while hold-n exists.
		const countingGit = join(root, "counting-git");
		writeFileSync(
			countingGit,
			`#!/bin/sh\nfor a in "$@"; do if [ "$a" = ls-files ]; then n=$(cat '${root}/count' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${root}/count'; touch '${root}/listing-'$n; while [ -e '${root}/hold-'$n ] && [ -d '${root}' ]; do sleep 0.02; done; fi; done\nexec git "$@"\n`,
		);
		chmodSync(countingGit, 0o755);
		const opened = await openCheckpoints({ workspace: ws, storeRoot: store, gitBinary: countingGit, promptWaitMs: 50 });
		await opened.engine.snapshot();
		const n = Number(readFileSync(join(root, "count"), "utf8"));
		const [fullHold, pointHold] = [join(root, `hold-${n + 1}`), join(root, `hold-${n + 2}`)];
		writeFileSync(fullHold, "");
		writeFileSync(pointHold, "");
		// A preview's "now" (held), then the next prompt's point, its snapshot queued behind.
		const full = opened.engine.snapshot();
		await until(() => existsSync(join(root, `listing-${n + 1}`)));
		const point = await (opened.engine.promptSnapshot?.() as ReturnType<NonNullable<typeof opened.engine.promptSnapshot>>);
		expect(point.id.startsWith("+")).toBe(true);
		rmSync(fullHold);
		await full;
		// The run edits a.ts while git reads the tree for the point.
		await until(() => existsSync(join(root, `listing-${n + 2}`)));
		await opened.observer?.beforeMutate(join(ws, "a.ts"));
		put("a.ts", "a edited\n");
		rmSync(pointHold);
		const id = ((await point.whole) as { id: string }).id;
		await opened.engine.restore(id);
		expect(read("a.ts")).toBe("a before\n");
	});

	it("an id whose commit part is not a commit never reaches git (a session file is data)", async () => {
		const opened = await openHeld();
		await expect(opened.engine.restore("--output=/tmp/x~f00000001")).rejects.toThrow(/Not a checkpoint of this store/);
		await expect(opened.engine.preview("HEAD+f00000001")).rejects.toThrow(/Not a checkpoint of this store/);
		await expect(opened.engine.changes("+f00000001", "-p")).rejects.toThrow(/Not a checkpoint of this store/);
	});

	it("Esc while a command waits: the wait ends at once; the snapshot goes on and the point still becomes whole", async () => {
		put("a.ts", "a\n");
		const opened = await openHeld();
		const point = await heldPoint(opened);
		const esc = new AbortController();
		const mayStart = opened.engine.untrackedChangesMayStart?.(esc.signal) as Promise<void>;
		expect(await settled(mayStart)).toBe(false);
		esc.abort();
		await mayStart;
		expect(existsSync(hold)).toBe(true);
		rmSync(hold);
		expect(await point.whole).toEqual({ id: expect.stringMatching(/^[0-9a-f]{40}\+/) });
	});

	it("a snapshot that fails: the point stays edits-only with the reason, and commands go on", async () => {
		put("a.ts", "a\n");
		const opened = await openHeld({ fail: true });
		const point = await heldPoint(opened);
		const mayStart = opened.engine.untrackedChangesMayStart?.() as Promise<void>;
		rmSync(hold);
		expect(await point.whole).toEqual({ error: expect.stringMatching(/git ls-files failed/) });
		await mayStart;
	});
});
