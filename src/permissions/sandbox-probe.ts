// Whether bwrap can actually build the sandbox here: on PATH is not enough where user namespaces are
// off (some containers, hardened kernels). The sandbox-first mode (`auto`) is the default only when it
// can. Probed once per machine, bwrap binary and kernel: the answer is kept in the cache folder, so a
// launch pays the ~10 ms of a probe only the first time.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { release } from "node:os";
import { dirname, join } from "node:path";

/** What the probe runs: the namespaces and mounts every sandboxed command gets (sandbox.ts). */
const PROBE_ARGS = [
	"--ro-bind",
	"/",
	"/",
	"--dev",
	"/dev",
	"--proc",
	"/proc",
	"--unshare-pid",
	"--unshare-ipc",
	"--unshare-net",
	"--die-with-parent",
	"--",
	"true",
];

/** The key an answer holds for: the binary (path, size, time), the kernel and the user. */
function keyOf(bwrap: string): string | undefined {
	const info = statSync(bwrap, { throwIfNoEntry: false });
	if (!info) return undefined;
	return `${bwrap}:${info.size}:${info.mtimeMs}:${release()}:${process.getuid?.() ?? ""}`;
}

export function probeFile(cacheFolder: string): string {
	return join(cacheFolder, "sandbox-probe.json");
}

/** Runs bwrap once with the sandbox's namespaces; true when it exits 0. */
export function runProbe(bwrap: string): boolean {
	const result = spawnSync(bwrap, PROBE_ARGS, { stdio: "ignore", timeout: 10_000 });
	return result.status === 0;
}

/** Whether `bwrap` works, from the cache when this binary, kernel and user were probed before. */
export function bwrapWorks(bwrap: string, cacheFolder: string, probe: (bwrap: string) => boolean = runProbe): boolean {
	const key = keyOf(bwrap);
	if (key === undefined) return false;
	const file = probeFile(cacheFolder);
	try {
		const cached = JSON.parse(readFileSync(file, "utf8")) as { key?: unknown; works?: unknown };
		if (cached.key === key && typeof cached.works === "boolean") return cached.works;
	} catch {
		// No answer yet, or a broken file: probe again.
	}
	const works = probe(bwrap);
	try {
		mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
		writeFileSync(file, `${JSON.stringify({ key, works })}\n`, { mode: 0o600 });
	} catch {
		// A read-only cache only costs the next launch another probe.
	}
	return works;
}
