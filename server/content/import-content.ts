// placeholder, replaced by the content importer
export async function importContent(_deps: unknown, _dir: string, _accountId: number): Promise<{ counts: Record<string, number> }> {
  return { counts: {} };
}
