/**
 * Validates real responses (and request bodies) against an OpenAPI 3.1
 * document, so tests catch drift between the docs and the service.
 *
 * The whole document is registered with Ajv (JSON Schema 2020-12, which
 * OpenAPI 3.1 uses) under an `$id`, and each response schema is compiled as a
 * `$ref` into it, so `#/components/...` references resolve as written.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The parts of an OpenAPI document the validator reads. */
interface MediaTypeObject {
  schema?: unknown;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaTypeObject>;
}
interface RequestBodyObject {
  $ref?: string;
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  operationId?: string;
  deprecated?: boolean;
  requestBody?: RequestBodyObject;
  responses?: Record<string, ResponseObject>;
}
/** A parsed OpenAPI document. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>> & Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
  [key: string]: unknown;
}

/** One documented (method, path, status) combination. */
export interface DocumentedResponse {
  method: string;
  path: string;
  status: string;
  operationId: string | undefined;
  deprecated: boolean;
}

/** What {@link createOpenApiValidator} returns. */
export interface OpenApiValidator {
  /** The parsed document. */
  readonly document: OpenApiDocument;
  /**
   * Checks a response body against the schema documented for the operation
   * and status. An unknown operation or an undocumented status is an error.
   * @returns readable errors; empty when the response conforms.
   */
  validateResponse(method: string, pathTemplate: string, status: number, body: unknown): string[];
  /** Like {@link validateResponse}, but throws an Error listing the problems. */
  assertResponse(method: string, pathTemplate: string, status: number, body: unknown): void;
  /** Checks a request body against the operation's documented request body schema. */
  validateRequestBody(method: string, pathTemplate: string, body: unknown): string[];
  /** Checks a value against `#/components/schemas/{name}`. */
  validateSchema(name: string, value: unknown): string[];
  /** Every documented (method, path, status), in document order. */
  documentedResponses(): DocumentedResponse[];
}

/** Escapes one JSON pointer segment. */
function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointer(...segments: string[]): string {
  return segments.map((s) => `/${pointerSegment(s)}`).join('');
}

/** Reads a local `#/…` reference out of the document. */
function resolveLocal(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, got "${ref}".`);
  let current: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object' || !(key in current)) {
      throw new Error(`The reference "${ref}" does not resolve (missing "${key}").`);
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Follows `$ref` chains of response or request-body objects; returns the object and its pointer. */
function follow<T extends { $ref?: string }>(doc: unknown, value: T, at: string): { value: T; at: string } {
  let current = value;
  let where = at;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    if (hops > 10) throw new Error(`Too many $ref hops at ${at}.`);
    where = current.$ref.slice(1);
    current = resolveLocal(doc, current.$ref) as T;
  }
  return { value: current, at: where };
}

/** Collects `x-…` keys used anywhere, so Ajv's strict mode accepts them as annotations. */
function extensionKeys(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) extensionKeys(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeys(child, found);
    }
  }
  return found;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function valueAt(root: unknown, instancePath: string): unknown {
  if (instancePath === '') return root;
  let current = root;
  for (const raw of instancePath.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Formats Ajv errors as `body/translations/0/status: must be one of … (got "x")`. */
function formatErrors(errors: readonly ErrorObject[] | null | undefined, data: unknown): string[] {
  const lines = (errors ?? []).map((e) => {
    const where = `body${e.instancePath}`;
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'additionalProperties':
      case 'unevaluatedProperties':
        return `${where}: has the undocumented property "${String(params.additionalProperty ?? params.unevaluatedProperty)}"`;
      case 'required':
        return `${where}: misses the required property "${String(params.missingProperty)}"`;
      case 'enum':
        return `${where}: must be one of ${describeValue(params.allowedValues)}, got ${describeValue(valueAt(data, e.instancePath))}`;
      case 'const':
        return `${where}: must be ${describeValue(params.allowedValue)}, got ${describeValue(valueAt(data, e.instancePath))}`;
      default:
        return `${where}: ${e.message ?? e.keyword} (got ${describeValue(valueAt(data, e.instancePath))}; schema ${e.schemaPath})`;
    }
  });
  return [...new Set(lines)];
}

/**
 * Loads a YAML (or JSON) OpenAPI 3.1 document and returns a validator for it.
 * @example
 * const api = createOpenApiValidator('docs/openapi/publishing-api.yaml');
 * api.assertResponse('GET', '/channels', res.status, res.json);
 */
export function createOpenApiValidator(docPath: string): OpenApiValidator {
  const doc = YAML.parse(fs.readFileSync(docPath, 'utf8')) as OpenApiDocument;
  if (!doc || typeof doc !== 'object' || typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1')) {
    throw new Error(`${docPath} is not an OpenAPI 3.1 document.`);
  }
  const docId = `https://openapi.pressroom.test/${encodeURIComponent(path.basename(docPath))}`;
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true, allowUnionTypes: true });
  // Unknown keywords stay errors. strictTypes and strictRequired are off: OpenAPI documents narrow
  // shared schemas with allOf/oneOf branches that omit `type` and `properties`.
  addFormats(ajv);
  // The document's top-level fields (Ajv compiles the registered root too), OpenAPI's own
  // schema keywords and x- extensions are annotations for validation purposes.
  const annotations = new Set([...Object.keys(doc), 'discriminator', 'xml', 'externalDocs', 'example', ...extensionKeys(doc)]);
  for (const keyword of annotations) {
    ajv.addKeyword({ keyword, schemaType: ['string', 'number', 'boolean', 'object', 'array', 'null'] as never });
  }
  ajv.addSchema({ ...doc, $id: docId } as object, undefined, undefined, false);

  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (schemaPointer: string): ValidateFunction => {
    let fn = compiled.get(schemaPointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `${docId}#${schemaPointer}` });
      compiled.set(schemaPointer, fn);
    }
    return fn;
  };

  const operationOf = (method: string, pathTemplate: string): { op: OperationObject; at: string } | string => {
    const item = doc.paths?.[pathTemplate];
    if (!item) return `${method.toUpperCase()} ${pathTemplate}: the path is not documented`;
    const key = method.toLowerCase() as (typeof METHODS)[number];
    const op = item[key];
    if (!op) return `${method.toUpperCase()} ${pathTemplate}: the method is not documented for this path`;
    return { op, at: pointer('paths', pathTemplate, key) };
  };

  const validateJsonContent = (
    label: string,
    content: Record<string, MediaTypeObject> | undefined,
    at: string,
    body: unknown,
  ): string[] => {
    if (!content) return body === undefined || body === '' ? [] : [`${label}: no body is documented, but one was sent`];
    const jsonType = Object.keys(content).find((type) => /^application\/(?:[\w.+-]+\+)?json$/.test(type));
    if (jsonType === undefined) return [`${label}: no JSON content is documented (only ${Object.keys(content).join(', ')})`];
    if (content[jsonType]?.schema === undefined) return [];
    if (body === undefined) return [`${label}: a JSON body is documented, but the body was empty or not JSON`];
    const validate = validatorAt(`${at}${pointer('content', jsonType, 'schema')}`);
    if (validate(body)) return [];
    return formatErrors(validate.errors, body).map((line) => `${label}: ${line}`);
  };

  const validateResponse = (method: string, pathTemplate: string, status: number, body: unknown): string[] => {
    const found = operationOf(method, pathTemplate);
    if (typeof found === 'string') return [found];
    const label = `${method.toUpperCase()} ${pathTemplate} → ${status}`;
    const responses = found.op.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    if (key === undefined) {
      return [`${label}: status ${status} is not documented for this operation (documented: ${Object.keys(responses).join(', ')})`];
    }
    const { value, at } = follow(doc, responses[key]!, `${found.at}${pointer('responses', key)}`);
    return validateJsonContent(label, value.content, at, body);
  };

  return {
    document: doc,
    validateResponse,
    assertResponse(method, pathTemplate, status, body) {
      const errors = validateResponse(method, pathTemplate, status, body);
      if (errors.length === 0) return;
      const shown = JSON.stringify(body, null, 2) ?? String(body);
      throw new Error(
        `The response does not match ${path.basename(docPath)}:\n  - ${errors.join('\n  - ')}\nResponse body:\n${shown.length > 4000 ? `${shown.slice(0, 4000)}\n…` : shown}`,
      );
    },
    validateRequestBody(method, pathTemplate, body) {
      const found = operationOf(method, pathTemplate);
      if (typeof found === 'string') return [found];
      const label = `${method.toUpperCase()} ${pathTemplate} request`;
      if (!found.op.requestBody) return body === undefined ? [] : [`${label}: no request body is documented`];
      const { value, at } = follow(doc, found.op.requestBody, `${found.at}${pointer('requestBody')}`);
      return validateJsonContent(label, value.content, at, body);
    },
    validateSchema(name, value) {
      if (!doc.components?.schemas || !(name in doc.components.schemas)) return [`#/components/schemas/${name} is not documented`];
      const validate = validatorAt(pointer('components', 'schemas', name));
      return validate(value) ? [] : formatErrors(validate.errors, value).map((line) => `${name}: ${line}`);
    },
    documentedResponses() {
      const out: DocumentedResponse[] = [];
      for (const [pathTemplate, item] of Object.entries(doc.paths ?? {})) {
        for (const method of METHODS) {
          const op = item[method];
          if (!op) continue;
          for (const status of Object.keys(op.responses ?? {})) {
            out.push({ method: method.toUpperCase(), path: pathTemplate, status, operationId: op.operationId, deprecated: op.deprecated === true });
          }
        }
      }
      return out;
    },
  };
}
