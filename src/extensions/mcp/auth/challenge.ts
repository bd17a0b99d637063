// What the server said when it refused a request: the `WWW-Authenticate` of its last 401 or 403
// (resource metadata URL, scope, error). The transport's fetch goes through `recordingFetch`, so a
// refused tool call can say which scope the server wants, and the next sign-in asks for it.
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

export interface Challenge {
	status: number;
	scope?: string;
	resourceMetadataUrl?: string;
	error?: string;
}

/** One `key="value"` or `key=value` parameter of a Bearer challenge. */
function param(header: string, key: string): string | undefined {
	const match = header.match(new RegExp(`(?:^|[\\s,])${key}=(?:"([^"]*)"|([^\\s,]+))`, "i"));
	return match ? (match[1] ?? match[2]) : undefined;
}

/** The Bearer challenge of a 401/403 response, or undefined. */
export function readChallenge(status: number, header: string | null): Challenge | undefined {
	if ((status !== 401 && status !== 403) || !header || !/^bearer\b/i.test(header.trim())) return status === 401 ? { status } : undefined;
	return { status, scope: param(header, "scope"), resourceMetadataUrl: param(header, "resource_metadata"), error: param(header, "error") };
}

/** A fetch that remembers the last challenge in `sink.last`. */
export function recordingFetch(sink: { last?: Challenge }, base: FetchLike = fetch): FetchLike {
	return async (url, init) => {
		const response = await base(url, init);
		const challenge = readChallenge(response.status, response.headers.get("www-authenticate"));
		if (challenge) sink.last = challenge;
		return response;
	};
}
