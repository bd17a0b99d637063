// The file list of a find or grep through ripgrep (`rg --files`) when `rg` is on PATH: the same
// entries the Node walk (walk-files.ts) yields, in the same order, much faster on a large tree. The
// same rules: .gitignore files (nested negations as git), `.git` and `node_modules` skipped, hidden
// files listed. Links are not followed (ripgrep's default), so a link's target is never searched or
// listed by ripgrep; the linked files the walk lists are the links ripgrep's debug log says it passed
// over, checked again here (one walk of the tree, not a second by find(1)). Deny rules are asked for
// each folder once and each file, by real path (no links entered, so the path under the real root is
// real), and counted as the walk counts them. Undefined when `rg` cannot run: the caller walks in Node.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
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
	/**
	 * When no more than this many entries are kept, they come in any order: find sorts what it lists,
	 * and needs the walk's order only to choose which entries its limit keeps.
	 */
	unorderedUpTo?: number;
	/** Only the entries this keeps (find's glob), so that the rest cost no sorting or entry. */
	keep?: (relativePath: string, isDirectory: boolean) => boolean;
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

/**
 * `paths` in the walk's order: folder by folder, a folder before its contents, the names in a folder
 * sorted as strings (so `a/x` comes before `a.ts`). Grouped by folder and each group sorted alone: within
 * a folder the paths share their prefix, so they sort as their names do, with no sort keys to built.
 * `folders` are the paths that are folders; the folders above the paths are entered, not listed.
 */
function inWalkOrder(paths: readonly string[], folders: ReadonlySet<string>): string[] {
	const inside = new Map<string, string[]>();
	/** The group of `folder`, made (and the folder put in its parent's group) the first time. */
	const groupOf = (folder: string): string[] => {
		let group = inside.get(folder);
		if (group) return group;
		group = [];
		inside.set(folder, group);
		if (folder !== "") {
			const cut = folder.lastIndexOf("/");
			groupOf(cut === -1 ? "" : folder.slice(0, cut)).push(folder);
		}
		return group;
	};
	// Files of one folder mostly come together: their group is kept at hand.
	let last = { prefix: "\0", group: [] as string[] };
	for (const path of paths) {
		if (folders.has(path)) {
			groupOf(path);
			continue;
		}
		if (!(path.startsWith(last.prefix) && path.indexOf("/", last.prefix.length) === -1)) {
			const cut = path.lastIndexOf("/");
			const folder = cut === -1 ? "" : path.slice(0, cut);
			last = { prefix: cut === -1 ? "" : `${folder}/`, group: groupOf(folder) };
		}
		last.group.push(path);
	}
	const ordered: string[] = [];
	const visit = (folder: string): void => {
		const group = inside.get(folder) ?? [];
		group.sort();
		for (const path of group) {
			const entered = inside.has(path);
			if (!entered || folders.has(path)) ordered.push(path);
			if (entered) visit(path);
		}
	};
	visit("");
	return ordered;
}

/** A listed entry: its absolute path made only when asked for (find never asks). */
class ListedEntry implements WalkEntry {
	constructor(
		private readonly prefix: string,
		readonly relativePath: string,
		readonly isDirectory: boolean,
	) {}

	get absolutePath(): string {
		return this.prefix + this.relativePath;
	}
}

/** rg's arguments (but the mode) that list what the walk would under `root`. */
async function commonArgs(root: string): Promise<string[]> {
	// Inside an ignored folder asked for by path, the parents' rules do not apply (as in the walk).
	// (find's glob is not given to ripgrep: its globs override .gitignore, listing ignored files.)
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
	// --debug: ripgrep's log names each link it passes over, which the walk lists (see linkedFiles).
	const ran =
		(filter && (await run(options.rg, ["--debug", "--files-with-matches", "--crlf", ...filter, ...common, "."], root, options.signal))) ??
		(await run(options.rg, ["--debug", "--files", ...common, "."], root, options.signal));
	if (ran === undefined) return undefined;
	const links = await linkedFiles(root, passedOver(ran.log), options);
	const files = ran.listed.split("\0");
	files.pop(); // after the last NUL
	for (let i = 0; i < files.length; i++) if ((files[i] as string).startsWith("./")) files[i] = (files[i] as string).slice(2);
	files.push(...links);
	const kept: string[] = [];
	const isFolder = new Set<string>();
	const folders = new Set<string>();
	const folderDenied = new Map<string, boolean>();
	const keep = options.keep ?? (() => true);
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
	let lastFolder = "";
	for (const file of files) {
		const cut = file.lastIndexOf("/");
		if (options.denied) {
			if (cut > 0 && deniedFolder(file.slice(0, cut))) continue;
			if (options.denied(join(realRoot, file), false) !== undefined) {
				if (options.hidden) options.hidden.count++;
				continue;
			}
		}
		// The folders above a file, first time seen (the walk yields each folder once); the files of a
		// folder mostly come together, so the last one seen is checked first.
		if (options.includeDirectories && cut > 0 && !(cut === lastFolder.length && file.startsWith(lastFolder))) {
			lastFolder = file.slice(0, cut);
			for (let at = cut; at > 0; at = file.lastIndexOf("/", at - 1)) {
				const folder = file.slice(0, at);
				if (folders.has(folder)) break;
				folders.add(folder);
				if (keep(folder, true)) {
					kept.push(folder);
					isFolder.add(folder);
				}
			}
		}
		if (keep(file, false)) kept.push(file);
	}
	// In the walk's order (a folder before its contents): sorting only what is kept.
	const prefix = root.endsWith("/") ? root : `${root}/`;
	const ordered = options.unorderedUpTo !== undefined && kept.length <= options.unorderedUpTo ? kept : inWalkOrder(kept, isFolder);
	return ordered.map((rel) => new ListedEntry(prefix, rel, isFolder.has(rel)));
}

/**
 * The entries ripgrep's debug log says it passed over as neither file nor folder (links, FIFOs,
 * sockets), relative to the root: each is checked again on disk, so a log line that is not what it seems
 * (a name holding the phrase) names nothing or something not a link, and is dropped.
 */
function passedOver(log: string): string[] {
	// ripgrep 13 logs from subject.rs ("subject filter"), 14 from haystack.rs (some builds end the line
	// there, others add the file type); the paths start "./" (the search path is "."). The walk's own
	// lines ("ignoring ./dist: Ignore(…)") are other modules'. A name may hold the phrase or a newline:
	// the shortest and the longest reading are both tried (the disk check drops what names nothing).
	const shortest = /(?:subject|haystack)\.rs:\d+: ignoring \.\/([\s\S]*?): failed to pass (?:subject|haystack) filter(?::|\n|$)/g;
	const longest = /(?:subject|haystack)\.rs:\d+: ignoring \.\/(.*): failed to pass (?:subject|haystack) filter(?::|$)/gm;
	return [...new Set([...log.matchAll(shortest), ...log.matchAll(longest)].map((m) => m[1] as string))];
}

/**
 * The linked files among `candidates` the walk would list (not ignored, allowed, not denied), counting
 * the others. ripgrep lists no links (it does not follow them); the walk lists linked files, never
 * linked folders.
 */
async function linkedFiles(root: string, candidates: readonly string[], options: RipgrepListOptions): Promise<string[]> {
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
	for (const path of candidates) {
		const absolutePath = join(root, path);
		if (!(await lstat(absolutePath).catch(() => undefined))?.isSymbolicLink()) continue;
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

/** rg's stdout and stderr, or undefined when it could not run or failed (exit 1 is "nothing found"). */
function run(rg: string, args: string[], cwd: string, signal?: AbortSignal): Promise<{ listed: string; log: string } | undefined> {
	return new Promise((resolve, reject) => {
		const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"], signal });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
		child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
		child.stdout.on("error", () => undefined);
		child.stderr.on("error", () => undefined);
		child.on("error", (error) => {
			if (signal?.aborted) reject(error);
			else resolve(undefined);
		});
		child.on("close", (code) => {
			if (signal?.aborted) return reject(new Error("Operation aborted"));
			// 2: an error; with output, some folders could not be read (the walk skips those too), without
			// it the pattern did not parse or nothing could be read.
			const listed = Buffer.concat(out).toString("utf8");
			const log = Buffer.concat(err).toString("utf8");
			resolve(code === 0 || (code === 2 && listed !== "") ? { listed, log } : code === 1 ? { listed: "", log } : undefined);
		});
	});
}
