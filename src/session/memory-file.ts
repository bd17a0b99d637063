// `#text` and `/memory`: a line added to the instructions the model reads every session: the nearest
// AGENTS.md of the project (from the working folder up to the repository root; created at the root when
// there is none) or the user's global one in the config folder. The file is written whole through a temp
// file and a rename, so a crash leaves the old file or the new one. A link is followed only to a file
// inside the same tree (the repository, or the config folder): a cloned repository's AGENTS.md that links
// to ~/.bashrc is not appended to.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { configDir } from "../config/paths.js";
import { sanitizeTerminalText } from "../safety/sanitize.js";
import { redactSecrets } from "../safety/secrets.js";
import { foldersRootToCwd } from "./context-files.js";

export type MemoryScope = "project" | "global";

export const MEMORY_SCOPES: readonly MemoryScope[] = ["project", "global"];

const FILE_NAME = "AGENTS.md";

export interface MemoryTarget {
	scope: MemoryScope;
	/** The AGENTS.md a line goes to. */
	file: string;
	/** The tree it must stay in (a link out of it is refused): the repository, or the config folder. */
	root: string;
	exists: boolean;
}

const inside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** The project's AGENTS.md nearest to `cwd` (up to the repository root), else the root's, to create; and the global one. */
export function memoryTargets(cwd: string, env?: Record<string, string | undefined>): MemoryTarget[] {
	const realCwd = realpathSync(cwd);
	const upward = foldersRootToCwd(realCwd).reverse();
	const repoRoot = upward.find((folder) => existsSync(join(folder, ".git"))) ?? realCwd;
	const candidates = upward.slice(0, upward.indexOf(repoRoot) + 1).map((folder) => join(folder, FILE_NAME));
	const nearest = candidates.find((file) => lstatSync(file, { throwIfNoEntry: false }) !== undefined);
	const globalRoot = resolve(configDir(env));
	const globalFile = join(globalRoot, FILE_NAME);
	return [
		{ scope: "project", file: nearest ?? join(repoRoot, FILE_NAME), root: repoRoot, exists: nearest !== undefined },
		{ scope: "global", file: globalFile, root: globalRoot, exists: lstatSync(globalFile, { throwIfNoEntry: false }) !== undefined },
	];
}

/** The file to write: `target.file`, or what its link points to when that stays inside its tree. Throws one line otherwise. */
function writablePath(target: MemoryTarget): string {
	const info = lstatSync(target.file, { throwIfNoEntry: false });
	if (!info) return target.file;
	if (info.isSymbolicLink()) {
		const real = realpathSync.native(target.file);
		const root = existsSync(target.root) ? realpathSync(target.root) : target.root;
		if (!inside(real, root)) throw new Error(`${target.file} is a link to ${real}, outside ${target.root}: not changed`);
		return writablePath({ ...target, file: real });
	}
	if (!info.isFile()) throw new Error(`${target.file} is not a file: not changed`);
	return target.file;
}

/**
 * Appends `- text` (one line, known secrets redacted, in the visible form the picker showed: a pasted
 * escape sequence or bidi override must not reach the file raw, where `cat` or the next reader runs it) to the target's AGENTS.md, creating it (and the
 * config folder) when missing. Returns the file written; throws one line naming the file on failure.
 */
export function appendMemory(target: MemoryTarget, text: string): string {
	const line = sanitizeTerminalText(redactSecrets(text.replace(/\s+/g, " ").trim()));
	if (!line) throw new Error("Nothing to add: #text adds the text after # as a line of AGENTS.md");
	const file = writablePath(target);
	const before = existsSync(file) ? readFileSync(file, "utf8") : "";
	const separator = before === "" || before.endsWith("\n") ? "" : "\n";
	const mode = existsSync(file) ? lstatSync(file).mode & 0o777 : 0o644;
	mkdirSync(dirname(file), { recursive: true });
	// A fresh name, created exclusively: a link planted at the temp name is never written through.
	const temp = join(dirname(file), `.${FILE_NAME}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
	try {
		writeFileSync(temp, `${before}${separator}- ${line}\n`, { flag: "wx", mode });
		chmodSync(temp, mode);
		renameSync(temp, file);
	} catch (error) {
		rmSync(temp, { force: true });
		throw new Error(`${file}: ${(error as Error).message}`);
	}
	return file;
}
