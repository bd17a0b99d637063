// Agent definitions in Claude Code's format: a Markdown file per agent whose frontmatter names it
// (`name`, `description`, `tools` as a comma list, absent = all; `model`) and whose body is its system
// prompt. Read from the global config folder, then the project's `.claude/agents/` and `.rudder/agents/`
// (a later one of the same name wins, as for commands). A project's files are someone else's words
// until the folder is trusted, so they are read only then. Two are built in: `explore` and `general`.
import { join } from "node:path";
import { parseFrontmatter } from "../../extensions/frontmatter.js";
import { extensionFolders, listFolder, readSmallFile } from "../../extensions/markdown-folders.js";

type Env = Record<string, string | undefined>;

export interface AgentDefinition {
	name: string;
	description: string;
	/** Tool names it may use; undefined: every session tool except `task`. */
	tools?: string[];
	/** "provider/id" or a pattern the registry finds; undefined: the session's model. */
	model?: string;
	systemPrompt: string;
	source: "built-in" | "global" | "project";
	/** The Markdown file (not for built-ins). */
	path?: string;
}

export interface LoadedAgentDefinitions {
	definitions: AgentDefinition[];
	/** One line each: files skipped and why. */
	warnings: string[];
}

const NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** In name order (loadAgentDefinitions relies on it). */
export const builtInAgents: readonly AgentDefinition[] = [
	{
		name: "explore",
		description:
			"Searches and reads the code base to answer a question; read-only (read, grep, find, ls). Use it to keep a large search out of the main context.",
		tools: ["read", "grep", "find", "ls"],
		systemPrompt:
			"You are an explorer sub-agent of Rudder. Search and read the workspace to answer the task you are given. You cannot change anything. Finish with a concise answer: the facts found, with file paths and line numbers.",
		source: "built-in",
	},
	{
		name: "general",
		description: "A general-purpose sub-agent with the session's tools, for a self-contained piece of work.",
		systemPrompt:
			"You are a sub-agent of Rudder working on one self-contained task. Do the task with the tools you have, then finish with a concise report of what you did and found: it is all the main agent will see.",
		source: "built-in",
	},
];

/** Built-ins, then the global folder, then (when trusted) the project's; later ones of the same name win. */
export function loadAgentDefinitions(options: { cwd: string; env?: Env; projectTrusted: boolean }): LoadedAgentDefinitions {
	const byName = new Map<string, AgentDefinition>(builtInAgents.map((d) => [d.name, d]));
	const warnings: string[] = [];
	let untrusted = 0;
	let read = false;
	for (const folder of extensionFolders("agents", options.cwd, options.env)) {
		const entries = listFolder(folder.path).filter((e) => e.endsWith(".md"));
		if (folder.scope === "project" && !options.projectTrusted) {
			untrusted += entries.length;
			continue;
		}
		for (const entry of entries) {
			const parsed = readDefinition(join(folder.path, entry), folder.scope);
			if (typeof parsed === "string") warnings.push(parsed);
			else if (parsed) {
				byName.set(parsed.name, parsed);
				read = true;
			}
		}
	}
	if (untrusted > 0)
		warnings.push(`${untrusted} agent definition(s) of this project are not loaded until the folder is trusted (--trust-project)`);
	// The built-ins are in name order already: without files the sort is skipped, and with it the first
	// localeCompare, which builds ICU's collator (~5 ms of CPU in every launch).
	const definitions = [...byName.values()];
	return { definitions: read ? definitions.sort((a, b) => a.name.localeCompare(b.name)) : definitions, warnings };
}

/** The definition, or a warning line, or undefined for an entry that is not a file (a folder). */
function readDefinition(path: string, scope: "global" | "project"): AgentDefinition | string | undefined {
	const read = readSmallFile(path);
	if (read.text === undefined) return read.problem === "not a file" ? undefined : `Skipped agent file ${path}: ${read.problem}`;
	const { attributes, body } = parseFrontmatter(read.text);
	const name = (attributes.name ?? "").trim();
	if (!NAME.test(name)) return `Skipped agent file ${path}: "name" must be lower-case letters, digits, - or _`;
	const description = (attributes.description ?? "").trim();
	if (!description) return `Skipped agent file ${path}: "description" is missing`;
	if (!body.trim()) return `Skipped agent file ${path}: the system prompt (the text after the header) is empty`;
	const tools = attributes.tools
		?.split(",")
		.map((t) => t.trim())
		.filter(Boolean);
	const model = attributes.model?.trim();
	return {
		name,
		description,
		...(tools && tools.length > 0 ? { tools } : {}),
		// Claude Code's `inherit` is the default: the session's model.
		...(model && model !== "inherit" ? { model } : {}),
		systemPrompt: body.trim(),
		source: scope,
		path,
	};
}
