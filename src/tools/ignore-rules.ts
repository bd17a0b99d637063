// .gitignore handling for grep and find. Each folder's .gitignore applies to paths below that folder, so
// the rules are a chain: one matcher per folder that has a .gitignore, each checked with the path
// relative to its own folder. Rules from above the search root count too, up to the repository root.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/** Folders never searched, ignored or not: version-control data and installed packages. */
export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

interface RuleSet {
	/** Absolute folder holding the .gitignore. */
	base: string;
	matcher: Ignore;
}

export class IgnoreRules {
	private constructor(private readonly sets: readonly RuleSet[]) {}

	/** Rules in force at `root`: the .gitignore files from the repository root (if any) down to `root`. */
	static async forRoot(root: string): Promise<IgnoreRules> {
		const rules = await IgnoreRules.chainTo(root);
		// Asked to search inside an ignored folder (node_modules/react, dist/): the request is explicit,
		// so the rules that ignore the folder itself are dropped; only the folder's own rules stay.
		if (rules.ignores(root, true)) return new IgnoreRules([]).enter(root);
		return rules;
	}

	/** Whether the .gitignore files above `root` ignore the folder itself (a search asked for by path). */
	static async rootIgnored(root: string): Promise<boolean> {
		return (await IgnoreRules.chainTo(root)).ignores(root, true);
	}

	private static async chainTo(root: string): Promise<IgnoreRules> {
		const folders: string[] = [];
		let folder = root;
		for (;;) {
			folders.unshift(folder);
			if (existsSync(join(folder, ".git"))) break;
			const parent = dirname(folder);
			if (parent === folder) {
				// Not in a repository: only the root's own .gitignore applies.
				folders.splice(0, folders.length - 1);
				break;
			}
			folder = parent;
		}
		let rules = new IgnoreRules([]);
		for (const f of folders) rules = await rules.enter(f);
		return rules;
	}

	/** Rules for the contents of `folder`: these plus `folder/.gitignore` when it exists. */
	async enter(folder: string): Promise<IgnoreRules> {
		let text: string;
		try {
			text = await readFile(join(folder, ".gitignore"), "utf8");
		} catch {
			return this;
		}
		return new IgnoreRules([...this.sets, { base: folder, matcher: ignore().add(text) }]);
	}

	/**
	 * True when `absolutePath` is ignored. As in git, the deepest .gitignore with a rule for the path
	 * decides: a nested `!dist` re-includes what a parent's `dist` ignores.
	 */
	ignores(absolutePath: string, isDirectory: boolean): boolean {
		for (let i = this.sets.length - 1; i >= 0; i--) {
			const set = this.sets[i] as RuleSet;
			let rel = relative(set.base, absolutePath);
			if (rel === "" || rel.startsWith("..")) continue;
			if (sep !== "/") rel = rel.split(sep).join("/");
			const verdict = set.matcher.test(isDirectory ? `${rel}/` : rel);
			// The walk entered the parent folder, so a deeper file re-included it: this set's verdict
			// through the parent (the package checks parents too) is not about the path itself.
			const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/") + 1) : undefined;
			if (parent && set.matcher.ignores(parent)) continue;
			if (verdict.ignored) return true;
			if (verdict.unignored) return false;
		}
		return false;
	}
}
