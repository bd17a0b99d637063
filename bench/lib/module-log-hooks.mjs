// Loader hooks for bench/lib/first-frame-probe.mjs: every ES module file loaded, with its size and the
// time, appended to STARTUP_MODULE_LOG.
import { appendFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

export async function load(url, context, next) {
	const result = await next(url, context);
	const log = process.env.STARTUP_MODULE_LOG;
	if (log && url.startsWith("file:")) {
		let size = 0;
		try {
			size = statSync(fileURLToPath(url)).size;
		} catch {
			// not a plain file
		}
		appendFileSync(log, `${Date.now()} ${size} ${url}\n`);
	}
	return result;
}
