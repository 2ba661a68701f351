# counterexample.gp - written by akm from the CSV files in this folder.
# Re-render counterexample.png and counterexample.svg from inside this folder:  gnuplot counterexample.gp
set datafile separator ','
set datafile missing NaN
set title 'T4 caveat at fixed α (spiked u1): ρ^Δ/ρ^{EMA}; > 1 where the overdamped AK map is slower'
set xlabel 'log_{10}(α·ηκ_1 / η) at η = 0.5 scale'
set ylabel 'η'
set grid
set key outside top left horizontal
set palette defined (0 '#2166ac', 1 '#f7f7f7', 2 '#b2182b')
set cbrange [0:2]
set cblabel 'ρ^Δ / ρ^{EMA}'
set xrange [-2:1]
set yrange [0:0.9]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'counterexample.png'
plot 'data_counterexample.csv' every ::1 using 1:2:3 with points pt 5 ps 1.2 lc palette notitle
set terminal svg size 900,600 dynamic enhanced
set output 'counterexample.svg'
replot
unset output
