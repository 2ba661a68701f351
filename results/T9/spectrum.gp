# spectrum.gp - written by akm from the CSV files in this folder.
# Re-render spectrum.png and spectrum.svg from inside this folder:  gnuplot spectrum.gp
set datafile separator ','
set datafile missing NaN
set title 'T9 eigenvalues of Σ̂ for a data set of n_s keys in R^p (spiked covariance)'
set xlabel 'k (span eigen-directions, descending)'
set ylabel 'λ̂_k'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set xrange [1:1100]
set format y '10^{%L}'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'spectrum.png'
plot 'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p512-ns64' ? $6 : NaN) with lines lw 2 title 'p = 512, n_s = 64', \
     'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p512-ns128' ? $6 : NaN) with lines lw 2 title 'p = 512, n_s = 128', \
     'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p4096-ns512' ? $6 : NaN) with lines lw 2 title 'p = 4096, n_s = 512', \
     'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p4096-ns1024' ? $6 : NaN) with lines lw 2 title 'p = 4096, n_s = 1024', \
     0.125 title 'μ = (1−β)/η = 0.125' lw 2 dt 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'spectrum.svg'
replot
unset output
