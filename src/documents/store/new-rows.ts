// The component links of rows a write created, as it wrote them: publishing a new document copies
// its draft's components without reading back what the same transaction has just inserted.

export type CmpLink = {
  readonly cmp_id: number;
  readonly component_type: string;
  readonly field: string;
  readonly ord: number;
};

export class NewRows {
  private readonly links = new Map<string, CmpLink[]>();

  /** A row inserted by this write, holding no components until `add` says so. */
  created(componentTable: string, id: number): void {
    this.links.set(`${componentTable}#${id}`, []);
  }

  /** Links just written for a row; ignored for rows this write didn't create. */
  add(componentTable: string, id: number, links: readonly CmpLink[]): void {
    this.links.get(`${componentTable}#${id}`)?.push(...links);
  }

  /** Every component link of a row this write created, or undefined for any other row. */
  of(componentTable: string, id: number): readonly CmpLink[] | undefined {
    return this.links.get(`${componentTable}#${id}`);
  }
}
