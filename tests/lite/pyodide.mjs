// Run tests/lite/scenario.py under Pyodide in node, with ttt_lib installed from its wheel.
//   node tests/lite/pyodide.mjs PYODIDE_DIR WHEEL SCENARIO
// PYODIDE_DIR is the npm package's folder (node_modules/pyodide): Python and its standard
// library load from there, so nothing is fetched from the network. Prints the scenario's output.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheel, scenario] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
try {
  const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep,
                                      stdout: (line) => console.log(line) });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel",
                        { extractDir: sitePackages });
  pyodide.runPython(readFileSync(scenario, "utf8"), { filename: "scenario.py" });
} catch (error) {
  console.error(String(error.message ?? error).slice(-2000));  // the Python traceback's end
  process.exit(1);
}
