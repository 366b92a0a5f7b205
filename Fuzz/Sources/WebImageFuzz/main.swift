import WebImageFuzzing

FuzzMain.run(FuzzTargets.all)
