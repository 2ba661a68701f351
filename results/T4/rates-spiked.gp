# rates-spiked.gp - written by akm from the CSV files in this folder.
# Re-render rates-spiked.png and rates-spiked.svg from inside this folder:  gnuplot rates-spiked.gp
set datafile separator ','
set datafile missing NaN
set title 'T4 fitted per-direction rates (spiked) vs ρ(A_i); EMA: ρ ≥ √β'
set xlabel 'direction index i (eigenvalues descending)'
set ylabel 'spectral radius'
set grid
set key outside top left horizontal
set xrange [0:33]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'rates-spiked.png'
plot 'data_rates_spiked.csv' every ::1 using 3:(strcol(1) eq 'ak-normalized' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'fitted ak-normalized', \
     'data_rates_spiked.csv' every ::1 using 3:(strcol(1) eq 'ak-normalized' ? $5 : NaN) with lines lw 2 title 'ρ(A_i) ak-normalized', \
     'data_rates_spiked.csv' every ::1 using 3:(strcol(1) eq 'ak-raw' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'fitted ak-raw', \
     'data_rates_spiked.csv' every ::1 using 3:(strcol(1) eq 'ak-raw' ? $5 : NaN) with lines lw 2 title 'ρ(A_i) ak-raw', \
     'data_rates_spiked.csv' every ::1 using 3:(strcol(1) eq 'ema' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'fitted ema', \
     'data_rates_spiked.csv' every ::1 using 3:(strcol(1) eq 'ema' ? $5 : NaN) with lines lw 2 title 'ρ(A_i) ema'
set terminal svg size 900,600 dynamic enhanced
set output 'rates-spiked.svg'
replot
unset output
