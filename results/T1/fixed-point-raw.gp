# fixed-point-raw.gp - written by akm from the CSV files in this folder.
# Re-render fixed-point-raw.png and fixed-point-raw.svg from inside this folder:  gnuplot fixed-point-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'T1 fixed point, raw key, β = 0.9: M*u_i / Ḡu_i'
set xlabel 'λ_i (eigenvalue of Σ)'
set ylabel 'ratio to the gradient along u_i'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'fixed-point-raw.png'
plot 'data_raw.csv' every ::1 using 6:(strcol(1) eq 'spiked' ? $9 : NaN):10 with yerrorbars pt 7 ps 0.8 title 'measured (spiked)', \
     'data_raw.csv' every ::1 using 6:(strcol(1) eq 'power' ? $9 : NaN):10 with yerrorbars pt 7 ps 0.8 title 'measured (power)', \
     'data_raw.csv' every ::1 using 6:(strcol(1) eq 'power' ? $7 : NaN) with lines lw 2 title 'AK φ_i (power law)', \
     1/(25+x) title 'AK φ = 1/(μ+λ), spiked μ = 25' lw 2 dt 2, \
     1 title 'EMA (1)' lw 2 lc rgb 'gray40', \
     1/x title 'Wiener (1/λ)' lw 2 lc rgb 'black' dt 3
set terminal svg size 900,600 dynamic enhanced
set output 'fixed-point-raw.svg'
replot
unset output
