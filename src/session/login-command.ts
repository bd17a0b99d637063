// `/login <provider> <key>` carries a key: wherever text is accepted as a prompt (the editor, -p, rpc)
// it is run as the command, and it is never kept in the input history, the transcript or a file.

/** `/login …`, with or without arguments. */
export function isLoginCommand(text: string): boolean {
	return /^\/login(?:\s|$)/.test(text.trimStart());
}
