# Warnings on and clean for all of idres' own targets.
add_compile_options(-Wall -Wextra -Wpedantic)
