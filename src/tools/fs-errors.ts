// Node's fs errors read like "ENOENT: no such file or directory, open '/x'"; the model does better with
// one plain line that names the path it asked for.

/** A one-line Error for a failed file-system call on `displayPath`. */
export function describeFsError(error: unknown, displayPath: string): Error {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	switch (code) {
		case "ENOENT":
			return new Error(`File not found: ${displayPath}`);
		case "EISDIR":
			return new Error(`Path is a directory, not a file: ${displayPath}`);
		case "ENOTDIR":
			return new Error(`A parent of the path is not a directory: ${displayPath}`);
		case "EACCES":
		case "EPERM":
			return new Error(`Permission denied: ${displayPath}`);
		default: {
			const message = error instanceof Error ? error.message : String(error);
			return new Error(`${message.split("\n")[0]} (${displayPath})`);
		}
	}
}
