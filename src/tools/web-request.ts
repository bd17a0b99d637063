// One HTTP(S) GET for web_fetch, with the address check on the connection itself: the name is
// resolved, every address checked, and the socket opened to a checked address (a custom `lookup`), so
// a DNS answer that changes between a check and the connect (rebinding) cannot reach a refused one.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { refusedAddress } from "./web-address.js";

export interface WebResponse {
	status: number;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/** The body was longer than the cap: `body` is its start. */
	capped: boolean;
}

export interface WebRequestOptions {
	/** Largest body read (after decompression). */
	maxBytes: number;
	/** Private, loopback and metadata addresses may be reached (an allow rule names the host). */
	allowPrivate: boolean;
	signal: AbortSignal;
}

/** A refusal of the address check, told apart from network failures. */
export class RefusedAddressError extends Error {}

/** `lookup` for http.request: resolves, refuses if any address is refused, connects to a checked one. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
	return (hostname, options, callback) => {
		dnsLookup(hostname, { all: true, family: options.family }, (error, addresses: LookupAddress[]) => {
			if (error) return callback(error, "", 0);
			const refused = allowPrivate ? undefined : addresses.find((a) => refusedAddress(a.address) !== undefined);
			if (refused) {
				const why = `${hostname} resolves to ${refused.address}, which is ${refusedAddress(refused.address)}`;
				return callback(new RefusedAddressError(why), "", 0);
			}
			if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), "", 0);
			if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
			callback(null, addresses[0].address, addresses[0].family);
		});
	};
}

/** The body, decompressed as the server says it is encoded. */
function decoded(response: IncomingMessage): NodeJS.ReadableStream {
	const encoding = String(response.headers["content-encoding"] ?? "")
		.toLowerCase()
		.trim();
	if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(createGunzip());
	if (encoding === "deflate") return response.pipe(createInflate());
	if (encoding === "br") return response.pipe(createBrotliDecompress());
	return response;
}

/** GET `url` once (no redirects followed: the caller decides), reading at most `maxBytes` of body. */
export function getOnce(url: URL, options: WebRequestOptions): Promise<WebResponse> {
	const host = url.hostname.replace(/^\[|\]$/g, "");
	if (isIP(host) !== 0 && !options.allowPrivate) {
		// A literal address is connected to without a lookup: check it here.
		const refused = refusedAddress(host);
		if (refused) return Promise.reject(new RefusedAddressError(`${host} is ${refused}`));
	}
	const request = url.protocol === "https:" ? httpsRequest : httpRequest;
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{
				method: "GET",
				lookup: checkedLookup(options.allowPrivate),
				signal: options.signal,
				headers: {
					"user-agent": "Rudder web_fetch (+https://github.com/rudder)",
					accept: "text/html, text/markdown, text/plain, application/json, */*;q=0.5",
					"accept-encoding": "gzip, deflate, br",
				},
			},
			(response) => {
				const status = response.statusCode ?? 0;
				if (status >= 300 && status < 400) {
					response.resume();
					return resolve({ status, headers: response.headers, body: Buffer.alloc(0), capped: false });
				}
				const chunks: Buffer[] = [];
				let size = 0;
				let capped = false;
				const body = decoded(response);
				const finish = () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks), capped });
				body.on("data", (chunk: Buffer) => {
					if (capped) return;
					const room = options.maxBytes - size;
					chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
					size += Math.min(chunk.length, room);
					if (chunk.length >= room) {
						// Enough read: stop the transfer instead of draining (a 50 MB page costs 5 MB).
						capped = true;
						req.destroy();
						finish();
					}
				});
				body.on("end", finish);
				body.on("error", (error) => (capped ? undefined : reject(error)));
				response.on("error", (error) => (capped ? undefined : reject(error)));
			},
		);
		req.on("error", reject);
		req.end();
	});
}
