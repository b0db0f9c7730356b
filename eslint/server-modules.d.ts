// Types of server-modules.js for the TypeScript that reads it (its lint test).
export declare const serverModuleDependencies: Record<string, string[]>;
export declare const sharedServerFiles: string[];
export declare const compositionServerFiles: string[];
export declare const testOnlyServerFolders: string[];
export declare function serverModuleFolders(src: string): string[];
export declare function serverModuleZones(
  src: string,
  dependencies?: Record<string, string[]>,
): { target: string; from: string[]; message: string }[];
export declare function serverFaceZones(
  src: string,
  options?: { tests?: boolean },
): { target: string[]; from: string; except: string[]; message: string }[];
