// Custom slash commands: each markdown file `<name>.md` in a commands folder is `/name`. Its body is a
// prompt template sent to the model when the command is typed; `$ARGUMENTS` takes everything after the
// name and `$1`, `$2`… the single words (quotes group words). Frontmatter `description` and
// `argument-hint` show in completion and `/help`. A project command shadows a global one of the same name.
import { basename, join } from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { type ExtensionScope, extensionFolders, listFolder, readSmallFile } from "./markdown-folders.js";

type Env = Record<string, string | undefined>;

export interface CustomCommand {
	name: string;
	description: string;
	/** Frontmatter `argument-hint`, e.g. "<issue> [branch]". */
	argumentHint?: string;
	scope: ExtensionScope;
	/** The markdown file. */
	path: string;
	/** The body after the frontmatter. */
	template: string;
	/** The file of the global command this project command hides. */
	shadows?: string;
}

export interface LoadedCommands {
	commands: CustomCommand[];
	/** One line each: files skipped and why. */
	warnings: string[];
}

/** Names the slash-command parser accepts (see parseSlashCommand). */
const COMMAND_NAME = /^[A-Za-z][\w-]*$/;

/**
 * Reads every commands folder. `reserved` are built-in names: a file using one is skipped with a
 * warning, since the built-in always runs.
 */
export function loadCustomCommands(options: { cwd: string; env?: Env; reserved?: readonly string[] }): LoadedCommands {
	const reserved = new Set(options.reserved ?? []);
	const byName = new Map<string, CustomCommand>();
	const warnings: string[] = [];
	for (const folder of extensionFolders("commands", options.cwd, options.env)) {
		for (const entry of listFolder(folder.path)) {
			if (!entry.endsWith(".md")) continue;
			const path = join(folder.path, entry);
			const name = basename(entry, ".md").toLowerCase();
			if (!COMMAND_NAME.test(name)) {
				warnings.push(`Skipped command file ${path}: the name must be a letter, then letters, digits, - or _`);
				continue;
			}
			if (reserved.has(name)) {
				warnings.push(`Skipped command file ${path}: /${name} is built in`);
				continue;
			}
			const read = readSmallFile(path);
			if (read.text === undefined) {
				if (read.problem !== "not a file") warnings.push(`Skipped command file ${path}: ${read.problem}`);
				continue;
			}
			const { attributes, body } = parseFrontmatter(read.text);
			const previous = byName.get(name);
			byName.set(name, {
				name,
				description: attributes.description || firstLine(body) || `Custom command (${folder.scope})`,
				argumentHint: attributes["argument-hint"] || undefined,
				scope: folder.scope,
				path,
				template: body,
				shadows: previous?.scope === "global" && folder.scope === "project" ? previous.path : previous?.shadows,
			});
		}
	}
	return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), warnings };
}

function firstLine(body: string): string {
	const line = body.split("\n").find((l) => l.trim() !== "") ?? "";
	const text = line.replace(/^#+\s*/, "").trim();
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Splits arguments like a shell would for words: whitespace separates, quotes group. */
export function splitArguments(args: string): string[] {
	const words: string[] = [];
	const pattern = /"((?:\\"|[^"])*)"|'([^']*)'|(\S+)/g;
	for (const match of args.matchAll(pattern)) words.push(match[1]?.replace(/\\"/g, '"') ?? match[2] ?? match[3]);
	return words;
}

/**
 * The prompt a command sends. Placeholders are replaced in one pass, so an argument that itself
 * contains `$1` is not expanded again. Without any placeholder in the template, the arguments are
 * appended on their own line so nothing typed is lost.
 */
export function expandCommand(template: string, args: string): string {
	const words = splitArguments(args);
	let used = false;
	const expanded = template.replace(/\$ARGUMENTS|\$(\d+)/g, (match, index: string | undefined) => {
		used = true;
		if (match === "$ARGUMENTS") return args;
		return words[Number(index) - 1] ?? "";
	});
	const text = expanded.trim();
	if (!used && args.trim()) return `${text}\n\n${args.trim()}`;
	return text;
}
