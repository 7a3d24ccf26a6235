/**
 * A label of this build, shown small on the profile page when the build sets PORTICO_BUILD_MARKER (for
 * example a release name), so a deployment can tell which build of the area a browser runs.
 */
export const BUILD_MARKER: string = process.env.PORTICO_BUILD_MARKER ?? '';
