// Finding a program the way a shell would: the first folder of PATH that has it.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The first `name` on PATH. */
export function findOnPath(name: string, path = process.env.PATH ?? ""): string | undefined {
	for (const folder of path.split(delimiter)) {
		if (folder && existsSync(join(folder, name))) return join(folder, name);
	}
	return undefined;
}
