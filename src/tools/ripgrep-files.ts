// The file list of a find or grep through ripgrep (`rg --files`) when `rg` is on PATH: the same
// entries the Node walk (walk-files.ts) yields, in the same order, much faster on a large tree. The
// same rules: .gitignore files (nested negations as git), `.git` and `node_modules` skipped, hidden
// files listed. Links are not followed (ripgrep's default), so a link's target is never searched or
// listed. Deny rules are asked for each folder once and each file, by real path (no links entered, so
// the path under the real root is real), and counted as the walk counts them. Undefined when `rg`
// cannot run: the caller walks in Node.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { throwIfAborted } from "./abort.js";
import type { HiddenCount, PathDenial } from "./denied-paths.js";
import { IgnoreRules } from "./ignore-rules.js";
import { type LinkCheck, linkAllowed } from "./linked-outside.js";
import type { WalkEntry } from "./walk-files.js";

export interface RipgrepListOptions {
	signal?: AbortSignal;
	/** The ripgrep binary. */
	rg: string;
	includeDirectories?: boolean;
	denied?: PathDenial;
	hidden?: HiddenCount;
	/** Linked files are listed as the walk lists them: those whose target a read could not reach are counted here instead. */
	links?: LinkCheck;
	linked?: HiddenCount;
	/**
	 * Only files in which ripgrep finds this pattern (grep's first pass: the caller still matches every
	 * line with the JavaScript regex, so the output is the Node path's). Left out when the pattern has a
	 * word boundary (Unicode in ripgrep, ASCII in JavaScript) or ripgrep cannot parse it.
	 */
	contains?: { pattern: string; literal?: boolean; ignoreCase?: boolean };
}

let onPath: string | false | undefined;

/** The path of `rg` on PATH (looked up once), or false. */
export function ripgrepOnPath(): string | false {
	if (onPath !== undefined) return onPath;
	onPath = false;
	for (const dir of (process.env.PATH ?? "").split(delimiter)) {
		if (!dir) continue;
		try {
			accessSync(join(dir, "rg"), constants.X_OK);
			onPath = join(dir, "rg");
			break;
		} catch {}
	}
	return onPath;
}

const FLAGS = ["--files", "--null", "--hidden", "--no-require-git", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global"];
const SKIPPED = ["--glob", "!.git", "--glob", "!node_modules"];

/** The walk's order (folder by folder, names as strings, so `a/x` before `a.ts`): "/" sorting lowest. */
function inWalkOrder(paths: string[]): string[] {
	const keyed = paths.map((path) => ({ path, key: path.replaceAll("/", "\0") }));
	keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	return keyed.map((k) => k.path);
}

/** rg's arguments (but the mode) that list what the walk would under `root`. */
async function commonArgs(root: string): Promise<string[]> {
	// Inside an ignored folder asked for by path, the parents' rules do not apply (as in the walk).
	const parents = (await IgnoreRules.rootIgnored(root)) ? ["--no-ignore-parent"] : [];
	return [...FLAGS.slice(1), ...parents, ...SKIPPED];
}

/** rg's arguments that list, NUL-separated, the files the walk would yield under `root` (links aside). */
export async function ripgrepListArgs(root: string): Promise<string[]> {
	return ["--files", ...(await commonArgs(root)), "."];
}

export async function ripgrepFiles(root: string, options: RipgrepListOptions): Promise<WalkEntry[] | undefined> {
	throwIfAborted(options.signal);
	const common = await commonArgs(root);
	const filter = options.contains && prefilterArgs(options.contains);
	const listed =
		(filter && (await run(options.rg, ["--files-with-matches", "--crlf", ...filter, ...common, "."], root, options.signal))) ??
		(await run(options.rg, ["--files", ...common, "."], root, options.signal));
	if (listed === undefined) return undefined;
	const files = listed
		.split("\0")
		.filter((p) => p !== "")
		.map((p) => p.replace(/^\.\//, ""));
	// ripgrep lists no links; the walk lists linked files (never linked folders): found with find(1).
	const links = await linkedFiles(root, options);
	if (links === undefined) return undefined;
	files.push(...links);
	const entries: WalkEntry[] = [];
	const folders = new Set<string>();
	const folderDenied = new Map<string, boolean>();
	const realRoot = options.denied ? await realpath(root) : root;
	/** Whether `rel` (a folder) or one above it is denied; each denied folder counted once. */
	const deniedFolder = (rel: string): boolean => {
		const known = folderDenied.get(rel);
		if (known !== undefined) return known;
		const cut = rel.lastIndexOf("/");
		const above = cut >= 0 && deniedFolder(rel.slice(0, cut));
		const here = !above && options.denied?.(join(realRoot, rel), true) !== undefined;
		if (here && options.hidden) options.hidden.count++;
		folderDenied.set(rel, above || here);
		return above || here;
	};
	for (const file of inWalkOrder(files)) {
		const cut = file.lastIndexOf("/");
		const folder = cut >= 0 ? file.slice(0, cut) : "";
		if (folder && options.denied && deniedFolder(folder)) continue;
		if (options.denied?.(join(realRoot, file), false) !== undefined) {
			if (options.hidden) options.hidden.count++;
			continue;
		}
		if (options.includeDirectories && folder && !folders.has(folder)) {
			// The folders above a file, first time seen, before it (the walk yields a folder before its contents).
			const parts = folder.split("/");
			for (let i = 1; i <= parts.length; i++) {
				const rel = parts.slice(0, i).join("/");
				if (folders.has(rel)) continue;
				folders.add(rel);
				entries.push({ absolutePath: join(root, rel), relativePath: rel, isDirectory: true });
			}
		}
		entries.push({ absolutePath: join(root, file), relativePath: file, isDirectory: false });
	}
	return entries;
}

/** The linked files under `root` the walk would list (not ignored, allowed, not denied), counting the others. */
async function linkedFiles(root: string, options: RipgrepListOptions): Promise<string[] | undefined> {
	const found = await run(
		"find",
		[".", "(", "-type", "d", "(", "-name", ".git", "-o", "-name", "node_modules", ")", "-prune", ")", "-o", "-type", "l", "-print0"],
		root,
		options.signal,
	);
	if (found === undefined) return undefined;
	const out: string[] = [];
	const rulesOf = new Map<string, IgnoreRules | undefined>();
	/** The rules inside folder `rel`, or undefined when it or a folder above it is ignored. */
	const rulesIn = async (rel: string): Promise<IgnoreRules | undefined> => {
		if (rulesOf.has(rel)) return rulesOf.get(rel);
		let rules: IgnoreRules | undefined;
		if (rel === "") rules = await IgnoreRules.forRoot(root);
		else {
			const cut = rel.lastIndexOf("/");
			const above = await rulesIn(cut >= 0 ? rel.slice(0, cut) : "");
			rules = above && !above.ignores(join(root, rel), true) ? await above.enter(join(root, rel)) : undefined;
		}
		rulesOf.set(rel, rules);
		return rules;
	};
	const realRoot = options.denied ? await realpath(root) : root;
	for (const path of found
		.split("\0")
		.filter((p) => p !== "")
		.map((p) => p.replace(/^\.\//, ""))) {
		const absolutePath = join(root, path);
		const cut = path.lastIndexOf("/");
		const folder = cut >= 0 ? path.slice(0, cut) : "";
		const rules = await rulesIn(folder);
		if (!rules || rules.ignores(absolutePath, false)) continue;
		if (!(await stat(absolutePath).catch(() => undefined))?.isFile()) continue;
		if (options.links && !(await linkAllowed(options.links, absolutePath))) {
			if (options.linked) options.linked.count++;
			continue;
		}
		// Denied by where it leads (a link to `.env` is `.env`); by where it is, with the other files below.
		const target = options.denied && (await realpath(absolutePath).catch(() => undefined));
		if (target && options.denied?.(target, false) && !options.denied(join(realRoot, path), false)) {
			if (options.hidden) options.hidden.count++;
			continue;
		}
		out.push(path);
	}
	return out;
}

function prefilterArgs(contains: NonNullable<RipgrepListOptions["contains"]>): string[] | undefined {
	if (!contains.literal && /\\[bB]/.test(contains.pattern)) return undefined;
	return [
		...(contains.literal ? ["--fixed-strings"] : []),
		...(contains.ignoreCase ? ["--ignore-case"] : []),
		"--regexp",
		contains.pattern,
	];
}

/** rg's stdout, or undefined when it could not run or failed (exit 1 is "nothing found"). */
function run(rg: string, args: string[], cwd: string, signal?: AbortSignal): Promise<string | undefined> {
	return new Promise((resolve, reject) => {
		const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "ignore"], signal });
		const out: Buffer[] = [];
		child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
		child.stdout.on("error", () => undefined);
		child.on("error", (error) => {
			if (signal?.aborted) reject(error);
			else resolve(undefined);
		});
		child.on("close", (code) => {
			if (signal?.aborted) return reject(new Error("Operation aborted"));
			// 2: an error; with output, some folders could not be read (the walk skips those too), without
			// it the pattern did not parse or nothing could be read.
			const text = Buffer.concat(out).toString("utf8");
			resolve(code === 0 || (code === 2 && text !== "") ? text : code === 1 ? "" : undefined);
		});
	});
}
