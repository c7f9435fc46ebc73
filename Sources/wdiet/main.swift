import DietCLI

await WDiet.runCommandLine()
