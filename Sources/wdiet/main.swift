import DietCLI

WDiet.main()
