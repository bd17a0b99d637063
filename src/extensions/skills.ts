// Skills in the Agent Skills format: a folder holding `SKILL.md`, whose frontmatter gives `name` and
// `description`. Only those and the file's path go into the system prompt; the model reads the body
// with `read` when a task matches, so a skill costs a few tokens until it is used.
import { join } from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { type ExtensionScope, extensionFolders, listFolder, readSmallFile } from "./markdown-folders.js";

type Env = Record<string, string | undefined>;

export interface Skill {
	name: string;
	description: string;
	/** Absolute path of SKILL.md; what the model passes to `read`. */
	path: string;
	scope: ExtensionScope;
	/** The SKILL.md of a global skill this project skill hides. */
	shadows?: string;
}

export interface LoadedSkills {
	skills: Skill[];
	warnings: string[];
}

/** The format's limits: lowercase words joined by single hyphens, at most 64 characters. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

export function loadSkills(options: { cwd: string; env?: Env }): LoadedSkills {
	const byName = new Map<string, Skill>();
	const warnings: string[] = [];
	for (const folder of extensionFolders("skills", options.cwd, options.env)) {
		for (const entry of listFolder(folder.path)) {
			const path = join(folder.path, entry, "SKILL.md");
			const read = readSmallFile(path);
			if (read.text === undefined) {
				if (read.problem !== "ENOENT" && read.problem !== "ENOTDIR") warnings.push(`Skipped skill ${path}: ${read.problem}`);
				continue;
			}
			const { attributes } = parseFrontmatter(read.text);
			const problem = checkSkill(attributes.name, attributes.description, entry);
			if (problem) {
				warnings.push(`Skipped skill ${path}: ${problem}`);
				continue;
			}
			const previous = byName.get(attributes.name);
			byName.set(attributes.name, {
				name: attributes.name,
				description: attributes.description,
				path,
				scope: folder.scope,
				shadows: previous?.scope === "global" && folder.scope === "project" ? previous.path : previous?.shadows,
			});
		}
	}
	return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), warnings };
}

function checkSkill(name: string | undefined, description: string | undefined, folder: string): string | undefined {
	if (!name) return 'frontmatter "name" is missing';
	if (name.length > MAX_NAME || !SKILL_NAME.test(name))
		return `"name" must be lowercase letters, digits and single hyphens (at most ${MAX_NAME})`;
	if (name !== folder) return `"name" (${name}) must match its folder (${folder})`;
	if (!description?.trim()) return 'frontmatter "description" is missing';
	if (description.length > MAX_DESCRIPTION) return `"description" is longer than ${MAX_DESCRIPTION} characters`;
	return undefined;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The system-prompt section listing the skills; empty without skills. */
export function formatSkillsForPrompt(skills: readonly Skill[]): string {
	if (skills.length === 0) return "";
	const entries = skills.map(
		(s) =>
			`  <skill>\n    <name>${escapeXml(s.name)}</name>\n    <description>${escapeXml(s.description)}</description>\n    <location>${escapeXml(s.path)}</location>\n  </skill>`,
	);
	return [
		"# Skills",
		"",
		"Skills are instructions for specific tasks. When a task matches a skill's description, first use the read tool to load the file at its location and follow it; paths in a skill are relative to its folder.",
		"",
		"<available_skills>",
		...entries,
		"</available_skills>",
	].join("\n");
}
