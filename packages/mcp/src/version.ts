/** This package's version, reported in MCP handshakes (a test keeps it equal to package.json's). */
export const PACKAGE_VERSION = "0.1.0";
