# targets.gp - written by akm from the CSV files in this folder.
# Re-render targets.png and targets.svg from inside this folder:  gnuplot targets.gp
set datafile separator ','
set datafile missing NaN
set title 'T2 targets: EMA (β = 0.9) → Ḡ, pure delta (ηλ_{max} = 0.4) → ḠΣ^{-1}'
set xlabel 'λ_i (eigenvalue of Σ)'
set ylabel 'M_T u_i / Ḡu_i  (trial mean ± s.e.)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set xrange [0.07:13]
set yrange [0.07:15]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'targets.png'
plot 'data_online.csv' every ::1 using 3:(strcol(1) eq 'ema' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'EMA, T = 150', \
     'data_online.csv' every ::1 using 3:(strcol(1) eq 'delta' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'pure delta, T = 1500', \
     'data_online.csv' every ::1 using 3:(strcol(1) eq 'ema' ? $5 : NaN) with lines lw 2 title 'exact mean at T (EMA)', \
     'data_online.csv' every ::1 using 3:(strcol(1) eq 'delta' ? $5 : NaN) with lines lw 2 title 'exact mean at T (delta)', \
     1 title 'EMA target Ḡ: ratio 1' lw 1 dt 2 lc rgb 'gray30', \
     1/x title 'Wiener target ḠΣ^{-1}: ratio 1/λ_i' lw 1 dt 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'targets.svg'
replot
unset output
