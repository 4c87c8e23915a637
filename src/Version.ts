/** The release of the service, its CLI and its SDK (package.json's version). */
export const VERSION = "0.1.0"
