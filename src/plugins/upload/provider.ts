// Where file bytes live. A provider stores objects by a key it is given (`[path/]hash+ext`, built
// by Folio, never by a client) and tells the URL they are reachable at.

/** The bytes of an object: a temp file and how to serve it. */
export interface ObjectContent {
  /** the temp file to copy from */
  readonly file: string;
  readonly size: number;
  readonly mime: string;
  /** false: the store must make clients download it rather than display it */
  readonly inline: boolean;
}

export interface PutObject extends ObjectContent {
  /** `<hash><ext>`: safe characters only */
  readonly name: string;
  /** optional folder inside the store (object storage only); already validated */
  readonly path: string | null;
}

/** What is needed to find a stored object again: the fields every file and format row carries. */
export interface StoredRef {
  readonly hash: string;
  readonly ext: string;
  readonly url: string;
  readonly path?: string | null;
}

export interface UploadProvider {
  /** the `provider` column of the rows it stores */
  readonly name: string;
  /** true when URLs must be signed before they are handed out */
  readonly isPrivate: boolean;
  /** how long a signed URL stays valid, in seconds (private stores) */
  readonly signedUrlSeconds?: number;
  /** stores the object; returns its (unsigned) URL */
  put(object: PutObject): Promise<string>;
  /**
   * stores the content as the object `ref` names, in place of what it held (or as a new object):
   * a file's replaced content keeps the URL pages already link to; returns that (unsigned) URL
   */
  overwrite(ref: StoredRef, content: ObjectContent): Promise<string>;
  /** the folder inside the store that holds the object `ref` names (null: none, or no folders) */
  folderOf(ref: StoredRef): string | null;
  /** removes the object; a missing one is not an error */
  remove(ref: StoredRef): Promise<void>;
  /** a time-limited URL for a private object */
  signedUrl(ref: StoredRef): Promise<string>;
  close(): Promise<void>;
}
