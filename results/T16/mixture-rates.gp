# mixture-rates.gp - written by akm from the CSV files in this folder.
# Re-render mixture-rates.png and mixture-rates.svg from inside this folder:  gnuplot mixture-rates.gp
set datafile separator ','
set datafile missing NaN
set title 'T16 per-direction contraction along the eigenvectors of Σ̂_{mix} (normalized) and Σ_{mix} (raw)'
set xlabel 'eigen-direction j (descending eigenvalue)'
set ylabel 'per-step contraction (E[v_j^TP_5v_j])^{1/5}'
set grid
set key outside top left horizontal
set key bottom right
set yrange [0.76:0.92]
set linetype 1 lc rgb '#1b9e77'
set linetype 2 lc rgb '#1b9e77'
set linetype 3 lc rgb '#d95f02'
set linetype 4 lc rgb '#d95f02'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mixture-rates.png'
plot 'data_rates.csv' every ::1 using 2:(strcol(1) eq 'normalized' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'normalized measured', \
     'data_rates.csv' every ::1 using 2:(strcol(1) eq 'normalized' ? $4 : NaN) with lines lw 2 title 'normalized: β − ηλ_j(Σ̂_{mix})', \
     'data_rates.csv' every ::1 using 2:(strcol(1) eq 'raw' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'raw measured', \
     'data_rates.csv' every ::1 using 2:(strcol(1) eq 'raw' ? $4 : NaN) with lines lw 2 title 'raw: β − η_{raw}λ_j(Σ_{mix})', \
     0.9 title 'β (no key contraction)' lc rgb 'gray40' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'mixture-rates.svg'
replot
unset output
