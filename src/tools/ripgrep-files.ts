// The file list of a find or grep through ripgrep (`rg --files`) when `rg` is on PATH: the same
// entries the Node walk (walk-files.ts) yields, in the same order, much faster on a large tree. The
// same rules: .gitignore files (nested negations as git), `.git` and `node_modules` skipped, hidden
// files listed. Links are not followed (ripgrep's default), so a link's target is never searched or
// listed by ripgrep; the linked files the walk lists are the links ripgrep's debug log says it passed
// over, checked again here (one walk of the tree, not a second by find(1)). Deny rules are asked for
// each folder once and each file, by real path (no links entered, so the path under the real root is
// real), and counted as the walk counts them. Undefined when `rg` cannot run: the caller walks in Node.
import { accessSync, constants } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { delimiter, join } from "node:path";
import { throwIfAborted } from "./abort.js";
import type { HiddenCount, PathDenial } from "./denied-paths.js";
import { IgnoreRules } from "./ignore-rules.js";
import { type LinkCheck, linkAllowed } from "./linked-outside.js";
import { runRipgrep } from "./ripgrep-run.js";
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
 * A listing's threads: every core while the machine has one to spare, else one core left for the
 * caller, which reads the listing as it comes. Measured on two cores, the 70,000-file benchmark tree
 * with find's flags: idle (load 0.2–0.9), two threads 70 ms against one thread's 90 ms (find 85 against
 * 105 ms); busy (load 8), ripgrep's parallel walk took twice the CPU of one thread in futex waits and
 * context switches, and one thread listed in 0.82 of its time.
 */
export function listingThreads(cores: number = availableParallelism(), load: number = loadavg()[0] ?? 0): number {
	return cores > 1 && load >= cores ? cores - 1 : Math.max(1, cores);
}

const threadArgs = (): string[] => ["--threads", String(listingThreads())];

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

/**
 * rg's arguments that list, NUL-separated, the files the walk would yield under `root` (links aside).
 * No search path: `--files` then lists the working folder with no "./" before each path.
 */
export async function ripgrepListArgs(root: string): Promise<string[]> {
	return ["--files", ...threadArgs(), ...(await commonArgs(root))];
}

/** The listed paths, relative, in the walk's order (or any order: `unorderedUpTo`); `folders` are the ones that are folders. */
export interface RipgrepPaths {
	paths: string[];
	folders: ReadonlySet<string>;
}

/**
 * The paths the walk would yield under `root`, listed by ripgrep and handled as its output comes
 * (deny rules, the folders above, `keep`), then the linked files its log names; undefined when `rg`
 * cannot run.
 */
export async function ripgrepPaths(root: string, options: RipgrepListOptions): Promise<RipgrepPaths | undefined> {
	throwIfAborted(options.signal);
	const common = await commonArgs(root);
	const realRoot = options.denied ? await realpath(root) : root;
	const filter = options.contains && prefilterArgs(options.contains);
	// --debug: ripgrep's log names each link it passes over, which the walk lists (see linkedFiles).
	// `--files` lists with no search path, so with no "./" to cut; the search names one. A run that
	// fails starts the next with a new listing.
	let listing = new Listing(realRoot, options);
	let ran =
		filter &&
		(await runRipgrep(
			options.rg,
			["--debug", "--files-with-matches", "--crlf", ...filter, ...common, "."],
			root,
			listing.take,
			options.signal,
		));
	if (!ran) {
		listing = new Listing(realRoot, options);
		ran = await runRipgrep(options.rg, ["--debug", "--files", ...threadArgs(), ...common], root, listing.take, options.signal);
	}
	if (ran === undefined) return undefined;
	listing.take(await linkedFiles(root, passedOver(ran.log), options));
	const { kept, folders } = listing;
	// In the walk's order (a folder before its contents): sorting only what is kept.
	const paths = options.unorderedUpTo !== undefined && kept.length <= options.unorderedUpTo ? kept : inWalkOrder(kept, folders);
	return { paths, folders };
}

export async function ripgrepFiles(root: string, options: RipgrepListOptions): Promise<WalkEntry[] | undefined> {
	const listed = await ripgrepPaths(root, options);
	if (!listed) return undefined;
	const prefix = root.endsWith("/") ? root : `${root}/`;
	return listed.paths.map((rel) => new ListedEntry(prefix, rel, listed.folders.has(rel)));
}

/**
 * The entries kept from ripgrep's listing, a batch at a time: the denied ones counted and dropped, the
 * folders above each file added (when asked for), and only what `keep` keeps.
 */
class Listing {
	readonly kept: string[] = [];
	/** The kept folders. */
	readonly folders = new Set<string>();
	/** Every folder seen (the walk yields each once). */
	private readonly seen = new Set<string>();
	private readonly folderDenied = new Map<string, boolean>();
	private readonly keep: (relativePath: string, isDirectory: boolean) => boolean;
	/** The folder of the last file, with its "/": the files of a folder mostly come together. */
	private lastFolder = "\0";

	constructor(
		private readonly realRoot: string,
		private readonly options: RipgrepListOptions,
	) {
		this.keep = options.keep ?? (() => true);
	}

	readonly take = (batch: readonly string[]): void => {
		const { options, keep, kept } = this;
		for (let file of batch) {
			if (file.startsWith("./")) file = file.slice(2);
			const cut = file.lastIndexOf("/");
			if (options.denied) {
				if (cut > 0 && this.deniedFolder(file.slice(0, cut))) continue;
				if (options.denied(join(this.realRoot, file), false) !== undefined) {
					if (options.hidden) options.hidden.count++;
					continue;
				}
			}
			if (options.includeDirectories && cut > 0 && !(cut + 1 === this.lastFolder.length && file.startsWith(this.lastFolder))) {
				this.lastFolder = file.slice(0, cut + 1);
				this.enterFolders(file, cut);
			}
			if (keep(file, false)) kept.push(file);
		}
	};

	/** The folders above a file (`cut`: its last "/") not seen yet. */
	private enterFolders(file: string, cut: number): void {
		for (let at = cut; at > 0; at = file.lastIndexOf("/", at - 1)) {
			const folder = file.slice(0, at);
			if (this.seen.has(folder)) break;
			this.seen.add(folder);
			if (this.keep(folder, true)) {
				this.kept.push(folder);
				this.folders.add(folder);
			}
		}
	}

	/** Whether `rel` (a folder) or one above it is denied; each denied folder counted once. */
	private deniedFolder(rel: string): boolean {
		const known = this.folderDenied.get(rel);
		if (known !== undefined) return known;
		const cut = rel.lastIndexOf("/");
		const above = cut >= 0 && this.deniedFolder(rel.slice(0, cut));
		const here = !above && this.options.denied?.(join(this.realRoot, rel), true) !== undefined;
		if (here && this.options.hidden) this.options.hidden.count++;
		this.folderDenied.set(rel, above || here);
		return above || here;
	}
}

/**
 * The entries ripgrep's debug log says it passed over as neither file nor folder (links, FIFOs,
 * sockets), relative to the root: each is checked again on disk, so a log line that is not what it seems
 * (a name holding the phrase) names nothing or something not a link, and is dropped.
 */
function passedOver(log: string): string[] {
	// ripgrep 13 logs from subject.rs ("subject filter"), 14 from haystack.rs (some builds end the line
	// there, others add the file type); the paths start "./" (the search path, or the default one when
	// none is named). The walk's own lines ("ignoring ./dist: Ignore(…)") are other modules'. A name may
	// hold the phrase or a newline: the shortest and the longest reading are both tried (the disk check
	// drops what names nothing).
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
	const rulesOf = new Map<string, Promise<IgnoreRules | undefined>>();
	/** The rules inside folder `rel`, or undefined when it or a folder above it is ignored (read once, shared by the checks). */
	const rulesIn = (rel: string): Promise<IgnoreRules | undefined> => {
		let rules = rulesOf.get(rel);
		if (rules) return rules;
		if (rel === "") rules = IgnoreRules.forRoot(root);
		else {
			const cut = rel.lastIndexOf("/");
			rules = rulesIn(cut >= 0 ? rel.slice(0, cut) : "").then((above) =>
				above && !above.ignores(join(root, rel), true) ? above.enter(join(root, rel)) : undefined,
			);
		}
		rulesOf.set(rel, rules);
		return rules;
	};
	const realRoot = options.denied ? await realpath(root) : root;
	/** Whether the walk would list `path`; the links it would skip are counted. */
	const listed = async (path: string): Promise<boolean> => {
		const absolutePath = join(root, path);
		if (!(await lstat(absolutePath).catch(() => undefined))?.isSymbolicLink()) return false;
		const cut = path.lastIndexOf("/");
		const rules = await rulesIn(cut >= 0 ? path.slice(0, cut) : "");
		if (!rules || rules.ignores(absolutePath, false)) return false;
		if (!(await stat(absolutePath).catch(() => undefined))?.isFile()) return false;
		if (options.links && !(await linkAllowed(options.links, absolutePath))) {
			if (options.linked) options.linked.count++;
			return false;
		}
		// Denied by where it leads (a link to `.env` is `.env`); by where it is, with the other files below.
		const target = options.denied && (await realpath(absolutePath).catch(() => undefined));
		if (target && options.denied?.(target, false) && !options.denied(join(realRoot, path), false)) {
			if (options.hidden) options.hidden.count++;
			return false;
		}
		return true;
	};
	// All at once: each check is a few file-system calls, and a tree may hold many links.
	const verdicts = await Promise.all(candidates.map(listed));
	return candidates.filter((_, i) => verdicts[i]);
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
