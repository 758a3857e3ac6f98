from rulelearn.cli import main

main(prog_name="rulelearn")
