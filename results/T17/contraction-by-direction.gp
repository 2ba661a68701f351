# contraction-by-direction.gp - written by akm from the CSV files in this folder.
# Re-render contraction-by-direction.png and contraction-by-direction.svg from inside this folder:  gnuplot contraction-by-direction.gp
set datafile separator ','
set datafile missing NaN
set title 'T17 AK contraction at lag 10: follows the eigenvectors of the keys'' Σ̂'
set xlabel 'λ̂_i (eigenvalue of Σ̂ belonging to u_i, and to R u_i under Σ'')'
set ylabel 'E[w^T P_{10} w]'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set xrange [0.008:0.5]
set key inside bottom left vertical
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'contraction-by-direction.png'
plot 'data_contraction_lag10.csv' every ::1 using 4:(strcol(1) eq 'Σ: along u_i' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'Σ: along u_i', \
     'data_contraction_lag10.csv' every ::1 using 4:(strcol(1) eq 'Σ'': along R u_i' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'Σ'': along R u_i', \
     'data_contraction_lag10.csv' every ::1 using 4:(strcol(1) eq 'Σ'': along the old u_i' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'Σ'': along the old u_i', \
     (0.9-0.8*x)**10 title 'β̃^k = (β − ηλ̂)^k' lw 2 lc rgb 'gray40', \
     0.9**10 title 'EMA β^k' lc rgb 'gray40' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'contraction-by-direction.svg'
replot
unset output
